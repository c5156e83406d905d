import { plainMessage } from '../../shared/messages'
import type { ExportRequest, ExportResult, HistoryLine } from '../../shared/history'
import type { TranscriptRecord } from '../../shared/transcript'
import type { InboxEntry, InboxPage } from '../mailbox/mailbox'
import type { Position } from '../mailbox/position'
import { inboxMarkdown, transcriptMarkdown } from './history-markdown'

/** Where an export reads the team's history: transcripts record by record, inboxes by page. */
export interface ExportSource {
  /** The lead and every member, in roster order. */
  agents(): readonly string[]
  /** `agent`'s transcript from its first record, read as it is iterated. */
  transcriptRecords(agent: string): Iterable<TranscriptRecord>
  /** A page of `agent`'s inbox from `from` on (from the start without one), of bounded size. */
  inboxPage(agent: string, from: Position | undefined): Promise<InboxPage>
}

async function* inboxPages(source: ExportSource, agent: string): AsyncGenerator<InboxEntry[]> {
  let from: Position | undefined
  for (;;) {
    const page = await source.inboxPage(agent, from)
    yield page.entries
    if (page.next === null) return
    from = page.next
  }
}

function inboxLine(agent: string, entry: InboxEntry): HistoryLine {
  const message = entry.message
  return {
    source: 'inbox',
    agent,
    state: entry.state,
    position: entry.position,
    message: message ? plainMessage(message) : null,
    reason: entry.reason ?? null,
  }
}

function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

/** The name and type of the file an export is saved as. */
export function exportFile(
  request: ExportRequest,
  teamName: string,
): Pick<ExportResult, 'fileName' | 'mimeType'> {
  const mimeType = request.format === 'md' ? 'text/markdown' : 'application/x-ndjson'
  const fileName =
    request.agent !== undefined
      ? `${request.agent}-transcript.${request.format}`
      : `${safeFileName(teamName)}-history.${request.format}`
  return { fileName, mimeType }
}

/**
 * An agent's transcript, or the whole team's history (every transcript and every inbox with
 * each line's state), as Markdown to read or JSONL to process, piece by piece as it is read:
 * nothing holds a transcript whole, so a writer that waits for its output to drain keeps the
 * memory flat. An agent's JSONL is its transcript's records as they are read; the team's is
 * one `HistoryLine` a line.
 */
export async function* exportText(
  source: ExportSource,
  request: ExportRequest,
  teamName: string,
): AsyncGenerator<string> {
  const markdown = request.format === 'md'
  if (request.agent !== undefined) {
    const records = source.transcriptRecords(request.agent)
    if (markdown) {
      yield* transcriptMarkdown(request.agent, records, 1)
      yield '\n'
    } else for (const record of records) yield jsonLine(record)
    return
  }
  if (markdown) yield `# Team history: ${teamName}`
  for (const agent of source.agents()) {
    const records = source.transcriptRecords(agent)
    if (markdown) {
      yield `\n\n## ${agent}\n\n`
      yield* transcriptMarkdown(agent, records, 3)
      yield '\n\n'
      yield* inboxMarkdown(agent, inboxPages(source, agent), 3)
    } else {
      for (const record of records) yield jsonLine({ source: 'transcript', agent, record })
      for await (const entries of inboxPages(source, agent))
        for (const entry of entries) yield jsonLine(inboxLine(agent, entry))
    }
  }
  if (markdown) yield '\n'
}

/** The export as one text, for the window (it saves it through the browser's download). */
export async function exportHistory(
  source: ExportSource,
  request: ExportRequest,
  teamName: string,
): Promise<ExportResult> {
  const pieces: string[] = []
  for await (const piece of exportText(source, request, teamName)) pieces.push(piece)
  return { ...exportFile(request, teamName), content: pieces.join('') }
}

/** The team's name as a file name: anything but letters, digits, `-` and `_` becomes `-`. */
function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64)
  return safe.replace(/^-+|-+$/g, '') || 'team'
}
