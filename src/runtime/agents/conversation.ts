import type {
  MessageParam,
  ContentBlockParam,
  ToolResultBlockParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages'
import type { InjectedMessage, TranscriptRecord, ToolUseBlock } from '../../shared/transcript'
import { INTERRUPTED } from '../model/interrupted'
import { plainMessage } from '../../shared/messages'

/** How injected inbox messages read to the model: s09's `<inbox>` wrapping, one JSON array. */
export function formatInbox(messages: readonly InjectedMessage[]): string {
  return `<inbox>${JSON.stringify(messages.map(plainMessage))}</inbox>`
}

/** The API block a user-side record becomes. */
function userBlock(record: UserSideRecord): TextBlockParam | ToolResultBlockParam {
  if (record.kind === 'user') return { type: 'text', text: record.text }
  if (record.kind === 'inbox') return { type: 'text', text: formatInbox(record.messages) }
  return {
    type: 'tool_result',
    tool_use_id: record.tool_use_id,
    content:
      record.images && record.images.length > 0
        ? [
            ...(record.content === '' ? [] : [{ type: 'text' as const, text: record.content }]),
            ...record.images.map((image) => ({
              type: 'image' as const,
              source: { type: 'base64' as const, ...image },
            })),
          ]
        : record.content,
    is_error: record.is_error,
  }
}

type UserSideRecord = Extract<TranscriptRecord, { kind: 'user' | 'inbox' | 'tool-result' }>
export type CompactionRecord = Extract<TranscriptRecord, { kind: 'compaction' }>

/** The transcript's last compaction, which decides what the model sees; undefined if none. */
export function lastCompaction(records: readonly TranscriptRecord[]): CompactionRecord | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]
    if (record?.kind === 'compaction') return record
  }
  return undefined
}

/**
 * The records the model sees verbatim, in the order it meets them: all of them, or after a
 * compaction those after the range it summarized (compaction records themselves are never sent).
 */
export function verbatimRecords(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  const compaction = lastCompaction(records)
  const through = compaction?.through_seq ?? 0
  return inModelOrder(
    records.filter((record) => record.seq > through && record.kind !== 'compaction'),
  )
}

/**
 * The records in the order the model meets them. The file is in the order things happened, and
 * a record appended while a model call was in flight (the person's chat) comes before that
 * call's turn without being in its request: the model has not seen it, so it follows the turn
 * and goes out with the next request. The turn names the last record it saw
 * (`seen_through_seq`); the records after that one, which are the last ones before the turn,
 * move after it. A request always holds the turn before it, so nothing moves past an earlier
 * turn, whatever a hand-edited transcript says: each record moves at most once.
 */
export function inModelOrder(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  const ordered: TranscriptRecord[] = []
  let lastTurn = 0
  for (const record of records) {
    if (record.kind !== 'assistant') {
      ordered.push(record)
      continue
    }
    const seen = Math.max(record.seen_through_seq ?? record.seq, lastTurn)
    lastTurn = record.seq
    let start = ordered.length
    while (start > 0 && (ordered[start - 1]?.seq ?? 0) > seen) start--
    const unseen = ordered.splice(start)
    ordered.push(record, ...unseen)
  }
  return ordered
}

/** How a compaction's summary reads to the model. */
export function formatSummary(compaction: CompactionRecord): string {
  return `<summary of the earlier conversation>\n${compaction.summary}\n</summary>`
}

/**
 * The Messages API conversation derived from a transcript. Consecutive user-side records merge
 * into one user message (tool results first, as the API requires), so that the roles always
 * alternate whatever arrived between two model calls. After a compaction the conversation
 * opens with its identity block and summary, then the records after the summarized range.
 */
export function toConversation(records: readonly TranscriptRecord[]): MessageParam[] {
  const compaction = lastCompaction(records)
  const conversation: MessageParam[] = []
  let results: ToolResultBlockParam[] = []
  let texts: TextBlockParam[] = compaction
    ? [
        { type: 'text', text: compaction.identity },
        { type: 'text', text: formatSummary(compaction) },
      ]
    : []
  // A turn stopped mid-stream is sent only once something followed it on the user's side: as
  // the last message it would be a prefill, and a turn asked for after it replaces it.
  let interrupted: MessageParam | null = null
  const flushUser = (): void => {
    if (results.length === 0 && texts.length === 0) return
    if (interrupted !== null) conversation.push(interrupted)
    interrupted = null
    conversation.push({ role: 'user', content: [...results, ...texts] })
    results = []
    texts = []
  }
  for (const record of verbatimRecords(records)) {
    switch (record.kind) {
      case 'user':
      case 'inbox':
        texts.push(userBlock(record) as TextBlockParam)
        break
      case 'tool-result':
        results.push(userBlock(record) as ToolResultBlockParam)
        break
      case 'assistant': {
        if (record.content.length === 0) break
        flushUser()
        const message: MessageParam = {
          role: 'assistant',
          content: record.content as ContentBlockParam[],
        }
        if (isInterrupted(record)) interrupted = message
        else {
          interrupted = null
          conversation.push(message)
        }
        break
      }
      // An undo reaches the model as the mail that tells it (undo/undo-notice.ts), not here.
      case 'status':
      case 'compaction':
      case 'undo':
        break
    }
  }
  flushUser()
  return conversation
}

/** Tool calls of the last model turn that have no result recorded yet. */
export function unansweredToolCalls(records: readonly TranscriptRecord[]): ToolUseBlock[] {
  const answered = new Set<string>()
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]
    if (!record) continue
    if (record.kind === 'tool-result') answered.add(record.tool_use_id)
    if (record.kind === 'assistant') {
      return record.content.filter(
        (block): block is ToolUseBlock =>
          block.type === 'tool_use' && !answered.has((block as ToolUseBlock).id),
      )
    }
  }
  return []
}

/**
 * Whether the conversation has something new for the model: it ends on the user's side, as
 * the model meets it (a turn is no answer to what came while it was asked for).
 */
export function awaitsModel(records: readonly TranscriptRecord[]): boolean {
  const ordered = inModelOrder(records)
  for (let index = ordered.length - 1; index >= 0; index--) {
    const record = ordered[index]
    if (
      !record ||
      record.kind === 'status' ||
      record.kind === 'compaction' ||
      record.kind === 'undo'
    )
      continue
    // A turn the person stopped is not an answer: a resume asks for the turn again.
    return record.kind !== 'assistant' || isInterrupted(record)
  }
  return false
}

/** A model turn the person stopped while it streamed (its text kept, marked so). */
export function isInterrupted(record: TranscriptRecord): boolean {
  return record.kind === 'assistant' && record.stop_reason === INTERRUPTED
}
