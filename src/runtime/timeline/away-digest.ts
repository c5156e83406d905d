import type { AwayDigest, TimelineEntry } from '../../shared/timeline'
import { readTeamRecord, type TimelineFiles } from './read-timeline'

/** Without a last look, the digest covers the last day. */
export const FIRST_DIGEST_SECONDS = 24 * 60 * 60

type Line = { agent: string; summary: string; entryId: string }

/**
 * "While you were away": from `since` to `until`, the tasks done and the agents that finished
 * their work (their last activation in the range ended idle or shut down), what failed (errors,
 * round caps, budget pauses, failed checks, conflicts, escalations, schedules stopped at their
 * cap), what waits on the person now (the Needs-you queue), and the tokens and dollars spent.
 */
export async function awayDigest(
  files: TimelineFiles,
  range: { since: number; until: number },
): Promise<AwayDigest> {
  const record = await readTeamRecord(files, { since: range.since })
  const inRange = record.entries.filter(
    (entry) => entry.at >= range.since && entry.at <= range.until,
  )
  const counts: Record<string, number> = {}
  let usd = 0
  let tokens = 0
  for (const entry of inRange) {
    counts[entry.kind] = (counts[entry.kind] ?? 0) + 1
    usd += entry.usd ?? 0
    if (entry.tokens)
      tokens +=
        entry.tokens.input + entry.tokens.output + entry.tokens.cacheRead + entry.tokens.cacheWrite
  }
  return {
    since: range.since,
    until: range.until,
    finished: [...tasksDone(inRange), ...agentsFinished(inRange)],
    failed: inRange.filter(isFailure).map(line),
    waiting: record.pending.map((item) => ({
      agent: item.agent,
      summary: `${item.kind}: ${item.summary}`,
      id: item.id,
    })),
    usd,
    tokens: Math.min(tokens, Number.MAX_SAFE_INTEGER),
    counts,
  }
}

function line(entry: TimelineEntry): Line {
  return { agent: entry.agent, summary: entry.summary, entryId: entry.id }
}

/** Each task that became done in the range, once. */
function tasksDone(entries: readonly TimelineEntry[]): Line[] {
  const done = new Map<string, TimelineEntry>()
  const before = new Map<string, string>()
  for (const entry of entries) {
    if (entry.kind !== 'task' || entry.task === undefined) continue
    const was = before.get(entry.task.id)
    before.set(entry.task.id, entry.task.status)
    if (entry.task.status === 'done' && was !== 'done') done.set(entry.task.id, entry)
    else if (entry.task.status !== 'done') done.delete(entry.task.id)
  }
  return [...done.values()].map(line)
}

/** Agents whose last status in the range is the end of their work: idle or shut down. */
function agentsFinished(entries: readonly TimelineEntry[]): Line[] {
  const last = new Map<string, TimelineEntry>()
  for (const entry of entries)
    if (entry.kind === 'status' || entry.kind === 'budget') last.set(entry.agent, entry)
  return [...last.values()]
    .filter((entry) => entry.status === 'idle' || entry.status === 'shutdown')
    .filter((entry) => entry.cause !== 'round-cap' && entry.cause !== 'stopped')
    .map(line)
}

function isFailure(entry: TimelineEntry): boolean {
  switch (entry.kind) {
    case 'status':
      return entry.failed || entry.cause === 'round-cap'
    case 'budget':
      return true
    case 'check':
    case 'merge':
    case 'reaction':
    case 'schedule':
      return entry.failed
    default:
      return false
  }
}
