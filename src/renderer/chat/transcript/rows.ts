import { assertNever } from '../../../shared/errors'
import type { InjectedMessage, TranscriptRecord } from '../../../shared/transcript'
import type { LiveState, LiveTool } from '../../store/state'
import { own } from '../../../shared/own'

type RecordOf<K extends TranscriptRecord['kind']> = Extract<TranscriptRecord, { kind: K }>
type ToolResult = RecordOf<'tool-result'>
type UndoRecord = RecordOf<'undo'>

/** A tool call as a card shows it: from the transcript, or still streaming. */
export interface ToolCall {
  readonly id: string
  readonly name: string
  /** Pretty JSON once recorded; the raw partial JSON while it streams in. */
  readonly input: string
  readonly state: 'streaming' | 'running' | 'done' | 'failed' | 'unanswered'
  readonly output: string | null
}

/**
 * One virtualized row of a conversation. Keys stay stable as a row goes from live to recorded.
 * Times are seconds since the epoch, as transcripts and mailboxes write them.
 */
export type Row = RowBody & {
  /** The transcript record it was drawn from; absent while it still streams. */
  readonly seq?: number
}

type RowBody =
  | {
      readonly kind: 'user'
      readonly key: string
      readonly from: string
      readonly text: string
      readonly atSeconds: number
    }
  | {
      readonly kind: 'inbox'
      readonly key: string
      readonly messages: readonly InjectedMessage[]
      readonly atSeconds: number
    }
  | {
      readonly kind: 'text'
      readonly key: string
      readonly text: string
      readonly live: boolean
      /** The turn was stopped by the person while it streamed: this is what came. */
      readonly interrupted?: boolean
    }
  | { readonly kind: 'tool'; readonly key: string; readonly call: ToolCall }
  /** A thinking block, shown collapsed; a redacted one has no text to show. */
  | {
      readonly kind: 'thinking'
      readonly key: string
      readonly text: string
      readonly redacted: boolean
    }
  | {
      readonly kind: 'status'
      readonly key: string
      readonly status: string
      readonly reason: string
    }
  | {
      /** "Compacted here": what the model saw from this point on in place of the rows above. */
      readonly kind: 'compaction'
      readonly key: string
      readonly summary: string
      readonly identity: string
      readonly tokensBefore: number
      readonly tokensAfter: number
      readonly window: number
      readonly throughSeq: number
    }
  | {
      /** An undo (or a redo) of the agent's work: what it did, and Redo while it stands. */
      readonly kind: 'undo'
      readonly key: string
      readonly record: UndoRecord
      /** A later redo took this undo back. */
      readonly redone: boolean
    }

/** Rows for the loaded records: each tool call pairs with its result, found by tool-use id. */
export function recordRows(records: readonly TranscriptRecord[]): Row[] {
  const results: Record<string, ToolResult> = {}
  for (const record of records)
    if (record.kind === 'tool-result') results[record.tool_use_id] = record
  const paired: Record<string, true> = {}
  const redone: Record<string, true> = {}
  for (const record of records)
    if (record.kind === 'undo' && record.redo_of !== undefined) redone[record.redo_of] = true
  const rows: Row[] = []
  for (const record of records) {
    switch (record.kind) {
      case 'user':
        rows.push({
          seq: record.seq,
          kind: 'user',
          key: `u${record.seq}`,
          from: record.from,
          text: record.text,
          atSeconds: record.at,
        })
        break
      case 'inbox':
        rows.push({
          seq: record.seq,
          kind: 'inbox',
          key: `i${record.seq}`,
          messages: record.messages,
          atSeconds: record.at,
        })
        break
      case 'assistant':
        record.content.forEach((block, index) => {
          if (block.type === 'text' && typeof block['text'] === 'string') {
            if (block['text'].trim().length > 0)
              rows.push({
                seq: record.seq,
                kind: 'text',
                key: `a${record.seq}-${index}`,
                text: block['text'],
                live: false,
                interrupted: record.stop_reason === 'interrupted',
              })
          } else if (block.type === 'thinking' && typeof block['thinking'] === 'string') {
            rows.push({
              seq: record.seq,
              kind: 'thinking',
              key: `a${record.seq}-${index}`,
              text: block['thinking'],
              redacted: false,
            })
          } else if (block.type === 'redacted_thinking') {
            rows.push({
              seq: record.seq,
              kind: 'thinking',
              key: `a${record.seq}-${index}`,
              text: '',
              redacted: true,
            })
          } else if (block.type === 'tool_use' && typeof block['id'] === 'string') {
            const id = block['id']
            const result = own(results, id)
            if (result) paired[id] = true
            rows.push({
              seq: record.seq,
              kind: 'tool',
              key: `t${id}`,
              call: recordedCall(id, String(block['name'] ?? 'tool'), block['input'], result),
            })
          }
        })
        break
      case 'tool-result':
        // Shown in its call's card; alone only when the call is on a page not loaded yet.
        if (own(paired, record.tool_use_id) !== true)
          rows.push({
            seq: record.seq,
            kind: 'tool',
            key: `r${record.seq}`,
            call: recordedCall(record.tool_use_id, record.name, undefined, record),
          })
        break
      case 'status':
        rows.push({
          seq: record.seq,
          kind: 'status',
          key: `s${record.seq}`,
          status: record.status,
          reason: record.reason,
        })
        break
      case 'compaction':
        rows.push({
          seq: record.seq,
          kind: 'compaction',
          key: `c${record.seq}`,
          summary: record.summary,
          identity: record.identity,
          tokensBefore: record.tokens_before,
          tokensAfter: record.tokens_after,
          window: record.window,
          throughSeq: record.through_seq,
        })
        break
      case 'undo':
        rows.push({
          seq: record.seq,
          kind: 'undo',
          key: `x${record.seq}`,
          record,
          redone: own(redone, record.undo_id) === true,
        })
        break
      default:
        assertNever(record, 'transcript record')
    }
  }
  return rows
}

function recordedCall(
  id: string,
  name: string,
  input: unknown,
  result: ToolResult | undefined,
): ToolCall {
  return {
    id,
    name,
    input: input === undefined ? '' : prettyJson(input),
    state: result === undefined ? 'unanswered' : result.is_error ? 'failed' : 'done',
    output: result?.content ?? null,
  }
}

export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? ''
  } catch {
    return String(value)
  }
}

/**
 * The recorded rows plus what is still streaming: text since the last turn, and calls whose
 * input streams in. A recorded call still running is marked so from the live state.
 */
export function withLiveRows(rows: readonly Row[], live: LiveState | undefined): Row[] {
  const running: Record<string, LiveTool> = {}
  for (const tool of live?.tools ?? []) if (tool.phase === 'running') running[tool.id] = tool
  const all: Row[] = []
  for (const row of rows) {
    if (
      row.kind === 'tool' &&
      row.call.state === 'unanswered' &&
      own(running, row.call.id) !== undefined
    ) {
      all.push({ ...row, call: { ...row.call, state: 'running' } })
    } else {
      all.push(row)
    }
  }
  if (live === undefined) return all
  if (live.text.length > 0)
    all.push({ kind: 'text', key: 'live-text', text: live.text, live: true })
  for (const tool of live.tools) {
    if (tool.phase !== 'input') continue
    all.push({
      kind: 'tool',
      key: `t${tool.id}`,
      call: { id: tool.id, name: tool.name, input: tool.input, state: 'streaming', output: null },
    })
  }
  return all
}

/** A one-line summary of a call's input for the card header (a command, a path, a recipient). */
export function summarizeInput(input: string): string {
  let fields: Record<string, unknown> = {}
  try {
    const value: unknown = JSON.parse(input)
    if (typeof value === 'object' && value !== null) fields = value as Record<string, unknown>
  } catch {
    // Still streaming: read the string fields written so far.
    for (const match of input.matchAll(/"(\w+)"\s*:\s*"((?:[^"\\]|\\.)*)/g))
      fields[match[1] ?? ''] = match[2]
  }
  const to = fields['to']
  for (const key of summaryKeys) {
    const field = fields[key]
    if (typeof field !== 'string' || field.length === 0) continue
    return oneLine(key === 'content' && typeof to === 'string' ? `→ ${to}: ${field}` : field)
  }
  return oneLine(input)
}

const summaryKeys = ['command', 'path', 'content', 'name', 'to', 'prompt']

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}
