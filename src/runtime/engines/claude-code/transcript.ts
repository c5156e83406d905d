import type { TeamEvent } from '../../../shared/events'
import type {
  AssistantBlock,
  NewTranscriptRecord,
  TranscriptRecord,
  Usage,
} from '../../../shared/transcript'
import { isRecord, tokenCount } from './reported'

/**
 * Claude Code's stream, as records of this app's own transcript format, so the transcript view,
 * search, export and the usage totals read a Claude Code teammate as they read any other.
 *
 * The SDK's messages are read as untrusted JSON (the process runs in the sandbox, with the
 * agent): every field is checked before it is used, and what does not fit is skipped.
 *
 * - An API message arrives as several `assistant` messages with one id (a block each): they are
 *   gathered and recorded as one `assistant` record once the message is over.
 * - `tool_result` blocks of a `user` message become `tool-result` records.
 * - Live text and tool input stream as the built-in engine's events (`stream_event`).
 * - `compact_boundary` becomes a `compaction` record (the marker the transcript shows).
 * - A turn's tokens come from its `result` message, per model, and are recorded on the turn's
 *   last assistant record, so this app's price table prices them (never Claude Code's estimate).
 *   Each recorded API message counts as one model call (a round), as in the built-in engine.
 */
export interface TranscriptSink {
  readonly record: (record: NewTranscriptRecord) => TranscriptRecord
  readonly emit: (event: TeamEvent) => void
  /** A model call's tokens were counted (the usage meter and the `usage-reported` event). */
  readonly countUsage: (usage: Usage, model: string) => void
}

type Json = Record<string, unknown>

const ZERO: Usage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
}

/** One model's tokens from a result's `modelUsage` entry (camelCase there). */
function modelUsageOf(entry: unknown): Usage {
  if (!isRecord(entry)) return ZERO
  return {
    input_tokens: tokenCount(entry['inputTokens']),
    output_tokens: tokenCount(entry['outputTokens']),
    cache_creation_input_tokens: tokenCount(entry['cacheCreationInputTokens']),
    cache_read_input_tokens: tokenCount(entry['cacheReadInputTokens']),
  }
}

function minus(after: Usage, before: Usage | undefined): Usage {
  if (before === undefined) return after
  const fields = [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const
  // A figure that went down means the result counts this turn alone, not the process's total.
  if (fields.some((field) => (after[field] ?? 0) < (before[field] ?? 0))) return after
  return {
    input_tokens: after.input_tokens - before.input_tokens,
    output_tokens: after.output_tokens - before.output_tokens,
    cache_creation_input_tokens:
      (after.cache_creation_input_tokens ?? 0) - (before.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens:
      (after.cache_read_input_tokens ?? 0) - (before.cache_read_input_tokens ?? 0),
  }
}

function isEmpty(usage: Usage): boolean {
  return (
    usage.input_tokens === 0 &&
    usage.output_tokens === 0 &&
    (usage.cache_creation_input_tokens ?? 0) === 0 &&
    (usage.cache_read_input_tokens ?? 0) === 0
  )
}

/** A tool result's content as text: its text blocks, and a note for each other block. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((block) =>
      isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string'
        ? block['text']
        : `[${isRecord(block) && typeof block['type'] === 'string' ? block['type'] : 'block'}]`,
    )
    .join('\n')
}

interface OpenMessage {
  id: string
  model: string
  blocks: AssistantBlock[]
  stopReason: string | null
}

export class ClaudeCodeTranscript {
  private open: OpenMessage | null = null
  /** Tool names by call id, for the results (a result names only the call). */
  private readonly toolNames = new Map<string, string>()
  /** Per model, the tokens counted so far in this process (results may count cumulatively). */
  private readonly counted = new Map<string, Usage>()
  private sessionId: string | null = null
  /** The tool call streaming at each block index of the message in flight. */
  private readonly streaming = new Map<number, string>()

  constructor(
    private readonly agent: string,
    private readonly sink: TranscriptSink,
  ) {}

  /** The session id the process announced (its `init` message), once it has. */
  get session(): string | null {
    return this.sessionId
  }

  /** Takes one SDK message; returns the `result` message's outcome when it is one. */
  take(message: unknown): TurnResult | null {
    if (!isRecord(message)) return null
    // A subagent's messages (Claude Code's Task tool is turned off) are not the teammate's.
    if (message['parent_tool_use_id'] !== undefined && message['parent_tool_use_id'] !== null)
      return null
    switch (message['type']) {
      case 'system':
        this.system(message)
        return null
      case 'stream_event':
        this.stream(message['event'])
        return null
      case 'assistant':
        this.assistant(message['message'])
        return null
      case 'user':
        this.user(message)
        return null
      case 'result':
        return this.result(message)
      default:
        return null
    }
  }

  /** Records what is gathered of the message in flight (a stop, a crash, the end). */
  flush(usage: Usage = ZERO): void {
    const open = this.open
    if (open === null) return
    this.open = null
    this.sink.record({
      kind: 'assistant',
      message_id: open.id,
      model: open.model,
      content: open.blocks,
      stop_reason: open.stopReason,
      usage,
    })
    // Each API message is one model call (a round), as the built-in engine counts them.
    this.sink.countUsage(usage, open.model)
  }

  private system(message: Json): void {
    if (message['subtype'] === 'init' && typeof message['session_id'] === 'string')
      this.sessionId = message['session_id']
    if (message['subtype'] !== 'compact_boundary') return
    this.flush()
    const meta = isRecord(message['compact_metadata']) ? message['compact_metadata'] : {}
    const before = tokenCount(meta['pre_tokens'])
    const trigger = meta['trigger'] === 'manual' ? 'manual' : 'auto'
    this.sink.record({
      kind: 'compaction',
      through_seq: 0,
      identity: '',
      summary: `Claude Code compacted its conversation (${trigger}): ${before} tokens before.`,
      trigger: `claude-code ${trigger}`,
      tokens_before: before,
      tokens_after: tokenCount(meta['post_tokens']),
      window: Math.max(1, before),
      model: this.open?.model ?? 'claude-code',
      usage: ZERO,
    })
  }

  private stream(event: unknown): void {
    if (!isRecord(event)) return
    const agent = this.agent
    if (event['type'] === 'message_start') this.streaming.clear()
    if (event['type'] === 'content_block_start' && isRecord(event['content_block'])) {
      const block = event['content_block']
      if (
        block['type'] === 'tool_use' &&
        typeof block['id'] === 'string' &&
        typeof block['name'] === 'string'
      ) {
        if (typeof event['index'] === 'number') this.streaming.set(event['index'], block['id'])
        this.sink.emit({ type: 'tool-call-started', agent, id: block['id'], name: block['name'] })
      }
      return
    }
    if (event['type'] !== 'content_block_delta' || !isRecord(event['delta'])) return
    const delta = event['delta']
    if (delta['type'] === 'text_delta' && typeof delta['text'] === 'string')
      this.sink.emit({ type: 'text-delta', agent, text: delta['text'] })
    const id = typeof event['index'] === 'number' ? this.streaming.get(event['index']) : undefined
    if (delta['type'] === 'input_json_delta' && typeof delta['partial_json'] === 'string' && id)
      this.sink.emit({ type: 'tool-input-delta', agent, id, partial_json: delta['partial_json'] })
  }

  private assistant(message: unknown): void {
    if (!isRecord(message) || typeof message['id'] !== 'string') return
    const id = message['id']
    if (this.open !== null && this.open.id !== id) this.flush()
    const open = (this.open ??= {
      id,
      model: typeof message['model'] === 'string' ? message['model'] : 'claude-code',
      blocks: [],
      stopReason: null,
    })
    const content = Array.isArray(message['content']) ? message['content'] : []
    for (const block of content) {
      if (!isRecord(block) || typeof block['type'] !== 'string') continue
      if (block['type'] === 'tool_use' && typeof block['id'] === 'string') {
        const name = typeof block['name'] === 'string' ? block['name'] : 'unknown'
        this.toolNames.set(block['id'], name)
        open.blocks.push({ type: 'tool_use', id: block['id'], name, input: block['input'] ?? {} })
      } else open.blocks.push(block as AssistantBlock)
    }
    if (typeof message['stop_reason'] === 'string') open.stopReason = message['stop_reason']
    if (open.blocks.some((block) => block.type === 'tool_use')) open.stopReason ??= 'tool_use'
  }

  private user(message: Json): void {
    const inner = message['message']
    if (!isRecord(inner) || !Array.isArray(inner['content'])) return
    const results = inner['content'].filter(
      (block): block is Json =>
        isRecord(block) &&
        block['type'] === 'tool_result' &&
        typeof block['tool_use_id'] === 'string',
    )
    if (results.length === 0) return
    this.flush()
    for (const block of results) {
      const id = block['tool_use_id'] as string
      const name = this.toolNames.get(id) ?? 'unknown'
      const content = resultText(block['content'])
      const isError = block['is_error'] === true
      this.sink.record({ kind: 'tool-result', tool_use_id: id, name, content, is_error: isError })
      this.sink.emit({
        type: 'tool-call-finished',
        agent: this.agent,
        id,
        name,
        content,
        is_error: isError,
      })
    }
  }

  private result(message: Json): TurnResult {
    // The turn's tokens, per model, go on its last assistant record (one record per model).
    const byModel = isRecord(message['modelUsage']) ? message['modelUsage'] : {}
    const turns: { model: string; usage: Usage }[] = []
    for (const [model, entry] of Object.entries(byModel)) {
      const total = modelUsageOf(entry)
      const usage = minus(total, this.counted.get(model))
      this.counted.set(model, total)
      if (!isEmpty(usage)) turns.push({ model, usage })
    }
    // The message still open (the turn's last) carries its model's tokens; any other model's,
    // or all of them when nothing is open, go on records of their own.
    const open = this.open
    const carried = open === null ? undefined : turns.find((turn) => turn.model === open.model)
    this.flush(carried?.usage ?? ZERO)
    for (const turn of turns) {
      if (turn === carried) continue
      // Calls of another model (Claude Code's own small ones), on a record of their own.
      this.sink.record({
        kind: 'assistant',
        message_id: `usage-${turn.model}`,
        model: turn.model,
        content: [],
        stop_reason: 'end_turn',
        usage: turn.usage,
      })
      this.sink.countUsage(turn.usage, turn.model)
    }
    const subtype = typeof message['subtype'] === 'string' ? message['subtype'] : 'error'
    const failed = message['is_error'] === true || subtype !== 'success'
    const errors = Array.isArray(message['errors'])
      ? message['errors'].filter((line): line is string => typeof line === 'string')
      : []
    const text = typeof message['result'] === 'string' ? message['result'] : ''
    return {
      subtype,
      failed,
      message: failed ? (errors.join('; ') || text || subtype).slice(0, 2000) : '',
    }
  }
}

/** How a Claude Code turn ended, as its `result` message says. */
export interface TurnResult {
  /** `success`, `error_max_turns`, `error_during_execution`, … */
  readonly subtype: string
  readonly failed: boolean
  readonly message: string
}
