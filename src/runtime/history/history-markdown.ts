import { undoWords } from '../../shared/undo'
import type { MailMessage } from '../../shared/messages'
import { formatSecondsUtc } from '../../shared/time'
import type { TranscriptRecord } from '../../shared/transcript'
import type { InboxEntry } from '../mailbox/mailbox'

/** A fenced code block that no run of backticks inside `text` can close early. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${text}\n${fence}`
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.length === 0 ? '>' : `> ${line}`))
    .join('\n')
}

function heading(record: TranscriptRecord, what: string): string {
  return `**#${record.seq} · ${what} · ${formatSecondsUtc(record.at)}**`
}

function mail(message: Pick<MailMessage, 'from' | 'type' | 'content'>): string {
  return `mail from ${message.from}${message.type === 'message' ? '' : ` (${message.type})`}`
}

/** One transcript record as Markdown: what the transcript view shows, in plain text. */
export function recordMarkdown(agent: string, record: TranscriptRecord): string {
  switch (record.kind) {
    case 'user':
      return `${heading(record, record.from)}\n\n${record.text}`
    case 'inbox':
      return record.messages
        .map((message) => `${heading(record, mail(message))}\n\n${quoted(message.content)}`)
        .join('\n\n')
    case 'assistant': {
      const parts = record.content.map((block) => {
        if (block.type === 'text') return String(block.text)
        if (block.type === 'thinking') return `*Thinking:*\n\n${quoted(String(block['thinking']))}`
        if (block.type === 'redacted_thinking') return '*Thinking (redacted)*'
        if (block.type === 'tool_use')
          return `→ \`${String(block.name)}\`\n\n${fenced(JSON.stringify(block.input, null, 2) ?? '', 'json')}`
        return `*(${block.type} block)*`
      })
      const stopped = record.stop_reason === 'interrupted' ? ' (stopped)' : ''
      return `${heading(record, `${agent}${stopped}`)}\n\n${parts.join('\n\n')}`
    }
    case 'tool-result':
      return `${heading(record, `${record.is_error ? '✗' : '←'} ${record.name}${record.is_error ? ' (error)' : ''}`)}\n\n${fenced(record.content)}`
    case 'status':
      return `${heading(record, record.status)}\n\n*${record.reason}*`
    case 'compaction':
      return `${heading(record, `compacted through #${record.through_seq}`)}\n\n${quoted(record.summary)}`
    case 'undo':
      return `${heading(record, record.redo_of === undefined ? 'undo' : 'redo')}\n\n*${undoWords(record)}*`
  }
}

/**
 * An agent's transcript as Markdown, a record at a time (joined, the section of an export), so
 * that a long transcript is never held whole as text.
 */
export function* transcriptMarkdown(
  agent: string,
  records: Iterable<TranscriptRecord>,
  level: number,
): Generator<string> {
  yield `${'#'.repeat(level)} Transcript of ${agent}`
  let empty = true
  for (const record of records) {
    empty = false
    yield `\n\n${recordMarkdown(agent, record)}`
  }
  if (empty) yield '\n\n*No records.*'
}

/** An agent's inbox as Markdown, page by page as it is read, as `transcriptMarkdown`. */
export async function* inboxMarkdown(
  agent: string,
  pages: AsyncIterable<readonly InboxEntry[]>,
  level: number,
): AsyncGenerator<string> {
  yield `${'#'.repeat(level)} Inbox of ${agent}`
  let empty = true
  for await (const entries of pages)
    for (const entry of entries) {
      empty = false
      yield `\n\n${entryMarkdown(entry)}`
    }
  if (empty) yield '\n\n*Empty.*'
}

function entryMarkdown(entry: InboxEntry): string {
  const where = `p${entry.position.segment}-${entry.position.offset}`
  const reason = entry.reason ? ` (${entry.reason})` : ''
  if (!entry.message) return `**${where} · ${entry.state}${reason}**`
  const message = entry.message
  return `**${where} · ${entry.state}${reason} · ${mail(message)} · ${formatSecondsUtc(message.timestamp)}**\n\n${quoted(message.content)}`
}
