import type { MailMessage } from '../../shared/messages'
import type { TimelineEntry } from '../../shared/timeline'
import type { Mailbox } from '../mailbox/mailbox'
import type { Position } from '../mailbox/position'
import { entry, entryId, isTimelineTime, oneLineSummary } from './entry-parts'
import type { Delivery } from './transcript-entries'
import { ProblemList } from './problem-list'

/** Inbox lines read at a time: a large inbox is never held whole. */
const INBOX_PAGE = 2000

/**
 * Every message in `agent`'s inbox (live segment and archived ones, as the mailbox reads them)
 * as one `message` entry in its sender's lane, with how far it got: delivered (and where the
 * recipient's transcript took it in, from `deliveries`), pending, or rejected. A line that is
 * not a message at all is a problem. A conflict handed back to a teammate (the review loop's
 * message) is also a failed `merge` entry.
 */
export async function inboxEntries(
  mailbox: Mailbox,
  agent: string,
  deliveries: ReadonlyMap<string, Delivery>,
): Promise<{ entries: TimelineEntry[]; problems: string[] }> {
  const entries: TimelineEntry[] = []
  const problems = new ProblemList(
    (count) => `${agent}'s inbox: and ${count} more problems (skipped)`,
  )
  let from: Position | undefined
  for (;;) {
    const page = await mailbox.peek(agent, { from, limit: INBOX_PAGE })
    for (const line of page.entries) {
      const where = `p${line.position.segment}-${line.position.offset}`
      const message = line.message
      if (message === undefined) {
        problems.push(`${agent}'s inbox at ${where}: ${line.reason ?? 'not a message'} (skipped)`)
        continue
      }
      if (!isTimelineTime(message.timestamp)) {
        problems.push(
          `${agent}'s inbox at ${where}: its time ${String(message.timestamp)} is out of range (skipped)`,
        )
        continue
      }
      const delivered = line.state === 'delivered' ? (deliveries.get(message.id) ?? null) : null
      entries.push(
        entry(
          {
            id: entryId('message', agent, message.id),
            at: message.timestamp,
            kind: 'message',
            agent: message.from,
            summary: `${message.from} → ${agent}: ${oneLineSummary(message.content, 300)}`,
            source: { type: 'inbox', agent, id: message.id, position: line.position },
          },
          {
            to: agent,
            failed: line.state === 'rejected',
            delivery: {
              state: line.state,
              at: delivered?.at ?? null,
              seq: delivered?.seq ?? null,
            },
          },
        ),
      )
      const conflict = conflictOf(message)
      if (conflict !== null)
        entries.push(
          entry(
            {
              id: entryId('conflict', agent, message.id),
              at: message.timestamp,
              kind: 'merge',
              agent,
              summary: `team/${agent} conflicts with ${conflict.into} in ${conflict.files.join(', ') || 'files git names'}; handed back to ${agent}`,
              source: { type: 'inbox', agent, id: message.id, position: line.position },
            },
            { failed: true },
          ),
        )
    }
    if (page.next === null) return { entries, problems: problems.list() }
    from = page.next
  }
}

/** The review loop's hand-back of a conflict (`extra.review`), when this message is one. */
function conflictOf(message: MailMessage): { into: string; files: string[] } | null {
  const review = message.extra.review as
    { kind?: unknown; into?: unknown; files?: unknown } | undefined
  if (review === null || typeof review !== 'object' || review.kind !== 'conflict') return null
  const files = Array.isArray(review.files)
    ? review.files.filter((file): file is string => typeof file === 'string').slice(0, 20)
    : []
  return { into: typeof review.into === 'string' ? review.into : 'its base', files }
}
