import { describe, expect, it } from 'vitest'
import { cutIndex } from '../../../../src/runtime/agents/compaction'
import { identityBlock } from '../../../../src/runtime/agents/compaction-text'
import {
  awaitsModel,
  toConversation,
  verbatimRecords,
} from '../../../../src/runtime/agents/conversation'
import { readTranscript } from '../../../../src/runtime/agents/transcript-store'
import {
  ContextWindows,
  DEFAULT_CONTEXT_WINDOW,
  knownContextWindow,
  parsePromptTooLong,
} from '../../../../src/runtime/model/context-window'
import { validateConversation } from '../../../../src/offline-model/requests'
import type { NewTranscriptRecord, TranscriptRecord } from '../../../../src/shared/transcript'
import { tempWorkspace } from '../../../helpers/workspace'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const usage = { input_tokens: 1, output_tokens: 1 }

/** Stamps records with v, seq and at, as the store does. */
function stamp(records: NewTranscriptRecord[]): TranscriptRecord[] {
  return records.map(
    (record, index) => ({ v: 1, seq: index + 1, at: 1, ...record }) as TranscriptRecord,
  )
}

function call(id: string, path: string): NewTranscriptRecord {
  return {
    kind: 'assistant',
    message_id: `msg_${id}`,
    model: 'm',
    content: [{ type: 'tool_use', id, name: 'read_file', input: { path } }],
    stop_reason: 'tool_use',
    usage,
  }
}

function result(id: string, content: string): NewTranscriptRecord {
  return { kind: 'tool-result', tool_use_id: id, name: 'read_file', content, is_error: false }
}

function compaction(throughSeq: number, summary: string): NewTranscriptRecord {
  return {
    kind: 'compaction',
    through_seq: throughSeq,
    identity: '<identity>alice</identity>',
    summary,
    trigger: 'threshold',
    tokens_before: 900,
    tokens_after: 300,
    window: 1000,
    model: 'm',
    usage,
  }
}

/** A task, then `rounds` tool calls with their results: no user turn but the first. */
function toolLoop(rounds: number, size = 400): NewTranscriptRecord[] {
  const records: NewTranscriptRecord[] = [{ kind: 'user', from: 'lead', text: 'Read them all.' }]
  for (let round = 1; round <= rounds; round++)
    records.push(call(`tu${round}`, `part-${round}`), result(`tu${round}`, 'x'.repeat(size)))
  return records
}

describe('the context window', () => {
  it('is read from the endpoint’s "prompt is too long", wherever the runtime quotes it', () => {
    expect(parsePromptTooLong('prompt is too long: 210345 tokens > 200000 maximum')).toEqual({
      tokens: 210345,
      maximum: 200000,
    })
    expect(
      parsePromptTooLong(
        'The model endpoint answered 400: prompt is too long: 25000 tokens > 20000 maximum',
      )?.maximum,
    ).toBe(20000)
    expect(parsePromptTooLong('The model endpoint answered 400: max_tokens: too large')).toBeNull()
    expect(parsePromptTooLong('prompt is too long: 5 tokens > 0 maximum')).toBeNull()
  })

  it('comes from the table for Claude models, the setting for others, and what was learned first', () => {
    expect(knownContextWindow('claude-sonnet-4-5')).toBe(200_000)
    expect(knownContextWindow('claude-opus-4-1-20250805')).toBe(200_000)
    expect(knownContextWindow('claude-haiku-4-5')).toBe(200_000)
    expect(knownContextWindow('llama-3-70b')).toBeUndefined()
    const setting: { tokens?: number } = {}
    const windows = new ContextWindows(() => setting.tokens)
    expect(windows.of('llama-3-70b')).toBe(DEFAULT_CONTEXT_WINDOW)
    setting.tokens = 32_000
    expect(windows.of('llama-3-70b')).toBe(32_000)
    expect(windows.learn('llama-3-70b', 8_192)).toBe(true)
    expect(windows.learn('llama-3-70b', 8_192)).toBe(false)
    expect(windows.of('llama-3-70b')).toBe(8_192)
    // Learned per model: another model keeps its own figure.
    expect(windows.of('claude-sonnet-4-5')).toBe(32_000)
  })
})

describe('the conversation after a compaction', () => {
  it('opens with the identity block and the summary, then the records after the range, verbatim', () => {
    const records = stamp([...toolLoop(4), compaction(5, 'You read parts 1 and 2.')])
    // Records 1-5 (the task, two calls and their results) were summarized: the tail is 6-9.
    const conversation = toConversation(records)
    expect(conversation[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '<identity>alice</identity>' },
        {
          type: 'text',
          text: '<summary of the earlier conversation>\nYou read parts 1 and 2.\n</summary>',
        },
      ],
    })
    expect(conversation.slice(1)).toEqual(toConversation(records.slice(5, 9)))
    expect(() => validateConversation(conversation)).not.toThrow()
    expect(verbatimRecords(records).map((record) => record.seq)).toEqual([6, 7, 8, 9])
    expect(awaitsModel(records)).toBe(true)
  })

  it('follows the last compaction only, with the records written after it', () => {
    const records = stamp([
      ...toolLoop(4),
      compaction(3, 'first'),
      call('tu5', 'part-5'),
      result('tu5', 'five'),
      compaction(7, 'second'),
      call('tu6', 'part-6'),
      result('tu6', 'six'),
    ])
    const conversation = toConversation(records)
    expect(JSON.stringify(conversation)).not.toContain('first')
    expect(JSON.stringify(conversation[0])).toContain('second')
    // 8 and 9 (tu4), then tu5 written after the first compaction, then tu6.
    expect(conversation).toHaveLength(7)
    expect(() => validateConversation(conversation)).not.toThrow()
  })

  it('reads an old transcript without compaction records as before', () => {
    const { dir } = tempWorkspace()
    const path = join(dir, 'old.jsonl')
    // Written before compaction existed: no `cut`, no compaction record, no cache fields.
    writeFileSync(
      path,
      [
        '{"v":1,"seq":1,"at":1,"kind":"user","from":"lead","text":"Go."}',
        '{"v":1,"seq":2,"at":2,"kind":"assistant","message_id":"m1","model":"m","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}}',
        '{"v":1,"seq":3,"at":3,"kind":"tool-result","tool_use_id":"t1","name":"bash","content":"a.txt","is_error":false}',
        '',
      ].join('\n'),
    )
    const { records, problems } = readTranscript(path)
    expect(problems).toEqual([])
    expect(records.map((record) => record.kind)).toEqual(['user', 'assistant', 'tool-result'])
    expect(toConversation(records)).toHaveLength(3)
  })

  it('refuses a compaction record that lacks what the view needs, with a reason', () => {
    const { dir } = tempWorkspace()
    const path = join(dir, 'bad.jsonl')
    writeFileSync(
      path,
      '{"v":1,"seq":1,"at":1,"kind":"user","from":"lead","text":"Go."}\n{"v":1,"seq":2,"at":2,"kind":"compaction","through_seq":1}\n',
    )
    const { records, problems } = readTranscript(path)
    expect(records).toHaveLength(1)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^line 2: /)
  })
})

describe('where the verbatim tail starts', () => {
  const view = stamp(toolLoop(6, 400))

  it('never between a tool call and its result, even in a loop of nothing but tool calls', () => {
    for (const keep of [-1, 0, 50, 150, 300, 1000, 10_000]) {
      const cut = cutIndex(view, keep)
      expect(cut, `keep ${keep}`).toBeGreaterThan(0)
      const first = view[cut]
      if (first) expect(first.kind, `keep ${keep}`).toBe('assistant')
      const conversation = toConversation(
        stamp([...toolLoop(6, 400), compaction(view[cut - 1]?.seq ?? 0, 'summary')]),
      )
      expect(() => validateConversation(conversation), `keep ${keep}`).not.toThrow()
    }
  })

  it('keeps more recent turns the more room it is given, and at least the last exchange', () => {
    // Each exchange is about 100 + 20 tokens by the estimate.
    expect(cutIndex(view, 0)).toBe(view.length - 2)
    expect(cutIndex(view, 300)).toBe(view.length - 4)
    expect(cutIndex(view, 10_000)).toBe(1)
    expect(cutIndex(view, -1)).toBe(view.length)
  })

  it('may start at a fresh user turn that answers no tool call', () => {
    const records = stamp([
      { kind: 'user', from: 'user', text: 'Hello.' },
      {
        kind: 'assistant',
        message_id: 'a',
        model: 'm',
        content: [{ type: 'text', text: 'Hi.' }],
        stop_reason: 'end_turn',
        usage,
      },
      { kind: 'user', from: 'user', text: 'Now the real work.' },
    ])
    expect(cutIndex(records, 0)).toBe(2)
  })

  it('never between a turn and what came while it was asked for, which it did not see', () => {
    const answer = (text: string, seen?: number): NewTranscriptRecord => ({
      kind: 'assistant',
      message_id: text,
      model: 'm',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage,
      ...(seen === undefined ? {} : { seen_through_seq: seen }),
    })
    const written: NewTranscriptRecord[] = [
      { kind: 'user', from: 'user', text: 'Hello.' },
      answer('Hi.'),
      { kind: 'user', from: 'user', text: 'First.' },
      { kind: 'user', from: 'user', text: 'Second, while you answer.' },
      answer('On the first.', 3),
    ]
    const records = stamp(written)
    const view = verbatimRecords(records)
    expect(view.map((record) => record.seq)).toEqual([1, 2, 3, 5, 4])
    // Not at the chat after the turn (seq 4 after 5): the turn is the last exchange.
    const cut = cutIndex(view, 0)
    expect(view[cut]?.seq).toBe(5)
    const compacted = stamp([...written, compaction(view[cut - 1]?.seq ?? 0, 'summary')])
    const conversation = toConversation(compacted)
    expect(JSON.stringify(conversation.at(-1))).toContain('Second, while you answer.')
    expect(awaitsModel(compacted)).toBe(true)
    expect(() => validateConversation(conversation)).not.toThrow()
  })
})

describe('the identity block', () => {
  it('names the agent, its team, who gave the current task, open requests and unanswered mail', () => {
    const records = stamp([
      { kind: 'user', from: 'lead', text: 'Port the parser.' },
      {
        kind: 'inbox',
        messages: [
          {
            id: 'm1',
            type: 'message',
            from: 'bob',
            content: 'Which branch?',
            timestamp: 1,
            extra: {},
          },
          { id: 'm2', type: 'message', from: 'carol', content: 'Thanks!', timestamp: 1, extra: {} },
        ],
        end: { segment: 1, offset: 10 },
      },
      {
        kind: 'assistant',
        message_id: 'a',
        model: 'm',
        content: [
          {
            type: 'tool_use',
            id: 's1',
            name: 'send_message',
            input: { to: 'carol', content: 'ok' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      },
    ])
    const block = identityBlock({ name: 'alice', role: 'coder', team: 'red' }, records, 3, [
      'shutdown request r1 from lead to alice, pending',
    ])
    expect(block).toContain(`You are 'alice', role: coder, in the team "red".`)
    expect(block).toContain('given by lead:\n<task>\nPort the parser.\n</task>')
    expect(block).toContain('- shutdown request r1 from lead to alice, pending')
    expect(block).toContain('- from bob (message): Which branch?')
    expect(block).not.toContain('Thanks!')
  })
})
