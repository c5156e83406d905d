import { plainMessage } from '../../../shared/messages'
import type { ExportRequest, ExportResult, HistoryLine } from '../../../shared/history'
import type { InboxEntry } from '../mailbox/mailbox'
import type { Position } from '../mailbox/position'
import { inboxMarkdown, transcriptMarkdown } from './history-markdown'
import type { HistorySource } from './team-history'

async function allInboxEntries(source: HistorySource, agent: string): Promise<InboxEntry[]> {
  const entries: InboxEntry[] = []
  let from: Position | undefined
  for (;;) {
    const page = await source.inboxPage(agent, from)
    entries.push(...page.entries)
    if (page.next === null) return entries
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

function jsonLines(values: readonly unknown[]): string {
  return values.map((value) => `${JSON.stringify(value)}\n`).join('')
}

/**
 * An agent's transcript, or the whole team's history (every transcript and every inbox with
 * each line's state), as Markdown to read or JSONL to process. An agent's JSONL is its
 * transcript file's records as they are; the team's is one `HistoryLine` a line.
 */
export async function exportHistory(
  source: HistorySource,
  request: ExportRequest,
  teamName: string,
): Promise<ExportResult> {
  const markdown = request.format === 'md'
  const mimeType = markdown ? 'text/markdown' : 'application/x-ndjson'
  if (request.agent !== undefined) {
    const records = source.transcriptFrom(request.agent, 0)
    return {
      fileName: `${request.agent}-transcript.${request.format}`,
      mimeType,
      content: markdown ? `${transcriptMarkdown(request.agent, records, 1)}\n` : jsonLines(records),
    }
  }
  const lines: HistoryLine[] = []
  const sections: string[] = [`# Team history: ${teamName}`]
  for (const agent of source.agents()) {
    const records = source.transcriptFrom(agent, 0)
    const entries = await allInboxEntries(source, agent)
    if (markdown) {
      sections.push(
        `## ${agent}`,
        transcriptMarkdown(agent, records, 3),
        inboxMarkdown(agent, entries, 3),
      )
    } else {
      for (const record of records) lines.push({ source: 'transcript', agent, record })
      for (const entry of entries) lines.push(inboxLine(agent, entry))
    }
  }
  return {
    fileName: `${safeFileName(teamName)}-history.${request.format}`,
    mimeType,
    content: markdown ? `${sections.join('\n\n')}\n` : jsonLines(lines),
  }
}

/** The team's name as a file name: anything but letters, digits, `-` and `_` becomes `-`. */
function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64)
  return safe.replace(/^-+|-+$/g, '') || 'team'
}
