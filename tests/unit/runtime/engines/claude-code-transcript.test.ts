import { describe, expect, it } from 'vitest'
import type { TeamEvent } from '../../../../src/shared/events'
import type { NewTranscriptRecord, Usage } from '../../../../src/shared/transcript'
import { ClaudeCodeTranscript } from '../../../../src/runtime/engines/claude-code/transcript'

function mapper(): {
  transcript: ClaudeCodeTranscript
  records: NewTranscriptRecord[]
  events: TeamEvent[]
  counted: [Usage, string][]
} {
  const records: NewTranscriptRecord[] = []
  const events: TeamEvent[] = []
  const counted: [Usage, string][] = []
  const transcript = new ClaudeCodeTranscript('alice', {
    record: (record) => {
      records.push(record)
      return { ...record, v: 1, seq: records.length, at: 0 } as never
    },
    emit: (event) => events.push(event),
    countUsage: (usage, model) => counted.push([usage, model]),
  })
  return { transcript, records, events, counted }
}

const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  parent_tool_use_id: null,
  message: { id, model: 'claude-sonnet-4-5', content, ...extra },
})

const result = (modelUsage: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: '',
  modelUsage,
  ...extra,
})

describe("Claude Code's stream as this app's transcript", () => {
  it('gathers the blocks of one API message into one record, and tool results into results', () => {
    const { transcript, records, events } = mapper()
    transcript.take(assistant('m1', [{ type: 'thinking', thinking: 'hm', signature: 's' }]))
    transcript.take(
      assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }]),
    )
    transcript.take({
      type: 'user',
      parent_tool_use_id: null,
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.txt' }] },
        ],
      },
    })
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'assistant',
        message_id: 'm1',
        content: [
          { type: 'thinking', thinking: 'hm', signature: 's' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
        ],
        stop_reason: 'tool_use',
      }),
      { kind: 'tool-result', tool_use_id: 't1', name: 'Bash', content: 'a.txt', is_error: false },
    ])
    expect(events).toEqual([
      {
        type: 'tool-call-finished',
        agent: 'alice',
        id: 't1',
        name: 'Bash',
        content: 'a.txt',
        is_error: false,
      },
    ])
  })

  it("puts a turn's tokens from its result on its last record, per model, counting only what is new", () => {
    const { transcript, records, counted } = mapper()
    const usage = (input: number, output: number, read: number, write: number) => ({
      inputTokens: input,
      outputTokens: output,
      cacheReadInputTokens: read,
      cacheCreationInputTokens: write,
      costUSD: 99, // its own estimate: never used
    })
    transcript.take(assistant('m1', [{ type: 'text', text: 'one' }]))
    transcript.take(
      result({
        'claude-sonnet-4-5': usage(10, 5, 100, 1000),
        'claude-haiku-4-5': usage(3, 1, 0, 0),
      }),
    )
    transcript.take(assistant('m2', [{ type: 'text', text: 'two' }]))
    // Cumulative over the process: the second turn adds 7 in, 2 out, 900 read.
    transcript.take(
      result({
        'claude-sonnet-4-5': usage(17, 7, 1000, 1000),
        'claude-haiku-4-5': usage(3, 1, 0, 0),
      }),
    )
    const turns = records.filter((record) => record.kind === 'assistant')
    expect(turns.map((record) => [record.model, record.usage])).toEqual([
      [
        'claude-sonnet-4-5',
        {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 1000,
        },
      ],
      [
        'claude-haiku-4-5',
        {
          input_tokens: 3,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      ],
      [
        'claude-sonnet-4-5',
        {
          input_tokens: 7,
          output_tokens: 2,
          cache_read_input_tokens: 900,
          cache_creation_input_tokens: 0,
        },
      ],
    ])
    expect(counted.map(([, model]) => model)).toEqual([
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-sonnet-4-5',
    ])
  })

  it('keeps the tokens of a turn that ended with no message open', () => {
    const { transcript, records, counted } = mapper()
    transcript.take(assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]))
    transcript.take({
      type: 'user',
      parent_tool_use_id: null,
      message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
    })
    transcript.take(
      result(
        { 'claude-sonnet-4-5': { inputTokens: 5, outputTokens: 1 } },
        { subtype: 'error_max_turns', is_error: true },
      ),
    )
    const usage = records.flatMap((record) => (record.kind === 'assistant' ? [record.usage] : []))
    expect(usage.at(-1)).toMatchObject({ input_tokens: 5, output_tokens: 1 })
    expect(counted).toHaveLength(2)
  })

  it('marks a compaction, streams text and tool starts live, and skips subagents', () => {
    const { transcript, records, events } = mapper()
    transcript.take({
      type: 'stream_event',
      parent_tool_use_id: null,
      event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
    })
    transcript.take({
      type: 'stream_event',
      parent_tool_use_id: null,
      event: {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't9', name: 'Write', input: {} },
      },
    })
    transcript.take({
      type: 'stream_event',
      parent_tool_use_id: null,
      event: {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"file' },
      },
    })
    transcript.take({
      type: 'stream_event',
      parent_tool_use_id: 't0',
      event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'sub' } },
    })
    transcript.take({
      type: 'system',
      subtype: 'compact_boundary',
      compact_metadata: { trigger: 'auto', pre_tokens: 180_000, post_tokens: 12_000 },
    })
    expect(events).toEqual([
      { type: 'text-delta', agent: 'alice', text: 'Hel' },
      { type: 'tool-call-started', agent: 'alice', id: 't9', name: 'Write' },
      { type: 'tool-input-delta', agent: 'alice', id: 't9', partial_json: '{"file' },
    ])
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'compaction',
        tokens_before: 180_000,
        tokens_after: 12_000,
        trigger: 'claude-code auto',
      }),
    ])
  })

  it('takes hostile messages without a throw: wrong types are skipped, numbers are bounded', () => {
    const { transcript, records } = mapper()
    for (const message of [
      null,
      7,
      'x',
      [],
      { type: 'assistant', message: 'no' },
      { type: 'assistant', parent_tool_use_id: null, message: { id: 5 } },
      { type: 'user', message: { content: 'x' } },
      { type: 'system', subtype: 'compact_boundary', compact_metadata: { pre_tokens: -5 } },
    ])
      expect(() => transcript.take(message)).not.toThrow()
    const end = transcript.take(
      result(
        {
          'claude-sonnet-4-5': {
            inputTokens: -1,
            outputTokens: 'many',
            cacheReadInputTokens: Number.NaN,
          },
        },
        { subtype: 'error_during_execution', is_error: true, errors: ['boom', 3] },
      ),
    )
    expect(end).toEqual({ subtype: 'error_during_execution', failed: true, message: 'boom' })
    expect(records.filter((record) => record.kind === 'compaction')).toEqual([
      expect.objectContaining({ tokens_before: 0 }),
    ])
  })
})
