import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import {
  awaitsModel,
  inModelOrder,
  toConversation,
} from '../../../../src/runtime/agents/conversation'

const at = { v: 1, at: 1 } as const
const records: TranscriptRecord[] = [
  { ...at, seq: 1, kind: 'user', from: 'lead', text: 'Stand by.' },
  {
    ...at,
    seq: 2,
    kind: 'assistant',
    message_id: 'msg_1',
    model: 'm',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_inbox', input: {} }],
    stop_reason: 'tool_use',
    usage: { input_tokens: 1, output_tokens: 1 },
  },
  {
    ...at,
    seq: 3,
    kind: 'tool-result',
    tool_use_id: 'toolu_1',
    name: 'read_inbox',
    content: '[]',
    is_error: false,
  },
  {
    ...at,
    seq: 4,
    kind: 'inbox',
    messages: [
      { id: 'm-1', type: 'message', from: 'lead', content: 'GO', timestamp: 2, extra: { k: 'v' } },
    ],
    end: { segment: 1, offset: 80 },
  },
] as TranscriptRecord[]

describe('the conversation of a transcript', () => {
  it('is the same however often it is rebuilt', () => {
    const first = toConversation(records)
    const again = toConversation(records)
    expect(again).toEqual(first)
    expect(first).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Stand by.' }] },
      { role: 'assistant', content: records[1]?.kind === 'assistant' ? records[1].content : [] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '[]', is_error: false },
          {
            type: 'text',
            text: '<inbox>[{"k":"v","id":"m-1","type":"message","from":"lead","content":"GO","timestamp":2}]</inbox>',
          },
        ],
      },
    ])
  })
})

describe('records appended while a model call was in flight', () => {
  const turn = (seq: number, extra: Partial<TranscriptRecord>): TranscriptRecord =>
    ({
      ...at,
      seq,
      kind: 'assistant',
      message_id: `msg_${seq}`,
      model: 'm',
      content: [{ type: 'text', text: 'Working on the first thing.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
      ...extra,
    }) as TranscriptRecord
  const first = { ...at, seq: 1, kind: 'user', from: 'user', text: 'First.' } as const
  const chat = { ...at, seq: 2, kind: 'user', from: 'user', text: 'Second.' } as const

  it('come after the turn that did not see them, and leave the agent work to do', () => {
    const records = [first, chat, turn(3, { seen_through_seq: 1 })]
    expect(inModelOrder(records).map((record) => record.seq)).toEqual([1, 3, 2])
    expect(toConversation(records).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ])
    expect(toConversation(records)[2]?.content).toEqual([{ type: 'text', text: 'Second.' }])
    expect(awaitsModel(records)).toBe(true)
    // Once a later turn saw it, nothing is left.
    const answered = [...records, turn(4, {})]
    expect(awaitsModel(answered)).toBe(false)
    expect(toConversation(answered)).toHaveLength(4)
  })

  it('follow the results of the turn’s tool calls in one user message', () => {
    const call = { type: 'tool_use', id: 'tu_1', name: 'bash', input: {} }
    const records = [
      first,
      chat,
      turn(3, { seen_through_seq: 1, content: [call], stop_reason: 'tool_use' }),
      {
        ...at,
        seq: 4,
        kind: 'tool-result',
        tool_use_id: 'tu_1',
        name: 'bash',
        content: 'ok',
        is_error: false,
      },
    ] as TranscriptRecord[]
    expect(toConversation(records)[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'tu_1', content: 'ok', is_error: false },
      { type: 'text', text: 'Second.' },
    ])
  })

  it('follow a stopped turn, which is then sent with them', () => {
    const records = [first, chat, turn(3, { seen_through_seq: 1, stop_reason: 'interrupted' })]
    expect(toConversation(records).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ])
    expect(awaitsModel(records)).toBe(true)
  })

  it('never move past an earlier turn, whatever a hand-edited transcript claims', () => {
    const chat = (seq: number) => ({ ...first, seq, text: `chat ${seq}` })
    const records = [
      chat(1),
      chat(2),
      turn(3, { seen_through_seq: 0 }),
      chat(4),
      turn(5, { seen_through_seq: 0 }),
    ]
    // A request holds the turn before it: 1 and 2 stay before turn 5.
    expect(inModelOrder(records).map((record) => record.seq)).toEqual([3, 1, 2, 5, 4])
  })

  it('in a transcript written before the turn said what it saw, read as before', () => {
    const records = [first, chat, turn(3, {})]
    expect(inModelOrder(records)).toEqual(records)
    expect(toConversation(records)[0]?.content).toEqual([
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Second.' },
    ])
    expect(awaitsModel(records)).toBe(false)
  })
})
