import { undoWords } from '../../shared/undo'
import type { MailMessage } from '../../shared/messages'
import type { TranscriptRecord } from '../../shared/transcript'
import type { Position } from '../mailbox/position'

/**
 * What the search index knows of one searchable piece of the team's history: a transcript
 * record (an inbox record gives one per message, so that each has its own sender), or an inbox
 * line. The text itself is not kept here: it is derived again from the record (which its
 * transcript already holds) for the few hits a query shows.
 */
export type HistoryDocument = {
  readonly agent: string
  readonly kind: string
  readonly sender: string
  readonly tools: readonly string[]
  readonly at: number
} & (
  | {
      readonly source: 'transcript'
      readonly record: TranscriptRecord
      /** Which message of an inbox record; 0 otherwise. */
      readonly part: number
    }
  | { readonly source: 'inbox'; readonly position: Position; readonly text: string }
)

/** One empty list for every document without tools (there are hundreds of thousands). */
const NO_TOOLS: readonly string[] = Object.freeze([])

/** The documents one transcript record of `agent` gives. */
export function transcriptDocuments(agent: string, record: TranscriptRecord): HistoryDocument[] {
  const base = { agent, source: 'transcript' as const, record, at: record.at, kind: record.kind }
  switch (record.kind) {
    case 'inbox':
      return record.messages.map((message, part) => ({
        ...base,
        part,
        sender: message.from,
        tools: NO_TOOLS,
      }))
    case 'user':
      return [{ ...base, part: 0, sender: record.from, tools: NO_TOOLS }]
    case 'assistant': {
      const tools = record.content.flatMap((block) =>
        block.type === 'tool_use' && typeof block.name === 'string' ? [block.name] : [],
      )
      return [{ ...base, part: 0, sender: agent, tools: [...new Set(tools)] }]
    }
    case 'tool-result':
      return [{ ...base, part: 0, sender: agent, tools: [record.name] }]
    case 'status':
    case 'compaction':
      return [{ ...base, part: 0, sender: agent, tools: NO_TOOLS }]
    case 'undo':
      return [{ ...base, part: 0, sender: record.by, tools: NO_TOOLS }]
  }
}

/** The document of a valid inbox line (a line that is not a message has nothing to find). */
export function inboxDocument(
  inbox: string,
  position: Position,
  message: MailMessage,
): HistoryDocument {
  return {
    agent: inbox,
    source: 'inbox',
    position,
    text: message.content,
    kind: 'mail',
    sender: message.from,
    tools: NO_TOOLS,
    at: message.timestamp,
  }
}

/** The searchable text of a document: what a person reads in that row. */
export function documentText(document: HistoryDocument): string {
  if (document.source === 'inbox') return document.text
  const record = document.record
  switch (record.kind) {
    case 'user':
      return record.text
    case 'inbox':
      return record.messages[document.part]?.content ?? ''
    case 'assistant':
      return record.content
        .map((block) => {
          if (block.type === 'text' && typeof block.text === 'string') return block.text
          if (block.type === 'thinking' && typeof block['thinking'] === 'string')
            return block['thinking']
          if (block.type === 'tool_use')
            return `${String(block.name)} ${JSON.stringify(block.input) ?? ''}`
          return ''
        })
        .filter((text) => text.length > 0)
        .join('\n')
    case 'tool-result':
      return record.content
    case 'status':
      return `${record.status}: ${record.reason}`
    case 'compaction':
      return record.summary
    case 'undo':
      return undoWords(record)
  }
}
