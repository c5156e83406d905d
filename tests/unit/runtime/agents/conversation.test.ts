import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { toConversation } from '../../../../src/main/runtime/agents/conversation'

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
