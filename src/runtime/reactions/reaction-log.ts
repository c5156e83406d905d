import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { emptyCounts, type CheckResult, type ReactionCounts } from '../../shared/reactions'
import { reactionLineSchema, type ReactionLine } from '../../shared/unattended-log'
import { appendOnceSync } from '../fs/durable'
import { readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

/** The log is read whole for its counts; past this it is refused (and counted as unreadable). */
export const MAX_REACTIONS_LOG_BYTES = 256 * 1024 * 1024

/** What `.team/reactions.jsonl` adds up to. */
export interface ReactionTotals {
  counts: ReactionCounts
  /** Lines that are not a reaction line (torn, forged, from a newer version): counted nowhere. */
  unreadable: number
  /** Each agent's last check line. */
  lastChecks: Map<string, ReactionLine>
  /** Why the file could not be read at all, or null. */
  problem: string | null
}

/**
 * The team's record of its reactions: one JSON object a line (`reactionLineSchema`), each
 * appended in one write(2) on an O_APPEND descriptor, so lines of concurrent writers never mix.
 * The runtime is its only writer; the timeline and the counts read it.
 */
export class ReactionLog {
  constructor(private readonly paths: TeamPaths) {}

  /** Appends one line (checked against the shared schema first: a bug never writes a bad one). */
  append(line: ReactionLine): void {
    const checked = reactionLineSchema.parse(line)
    mkdirSync(dirname(this.paths.reactionsLog), { recursive: true })
    appendOnceSync(this.paths.reactionsLog, `${JSON.stringify(checked)}\n`)
  }

  /** Reads the whole log: its counts per kind and each agent's last check. */
  totals(): ReactionTotals {
    const totals: ReactionTotals = {
      counts: emptyCounts(),
      unreadable: 0,
      lastChecks: new Map(),
      problem: null,
    }
    let text: string | null
    try {
      text = readRegularTextSync(this.paths.reactionsLog, {
        what: 'The reactions log',
        maxBytes: MAX_REACTIONS_LOG_BYTES,
      })
    } catch (error) {
      totals.problem = error instanceof Error ? error.message : String(error)
      return totals
    }
    if (text === null) return totals
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue
      const line = parseLine(raw)
      if (line === null) {
        totals.unreadable += 1
        continue
      }
      countLine(totals, line)
    }
    return totals
  }
}

/** Adds one line to the totals (the running team's, as it appends). */
export function countLine(totals: ReactionTotals, line: ReactionLine): void {
  totals.counts[line.kind] += 1
  if (line.kind === 'check') totals.lastChecks.set(line.agent, line)
}

function parseLine(raw: string): ReactionLine | null {
  try {
    const parsed = reactionLineSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** A check line as its teammate's last result (the branch line, Changes, the CLI). */
export function checkResultOf(line: ReactionLine): CheckResult {
  const command = typeof line['command'] === 'string' ? line['command'] : ''
  return {
    agent: line.agent,
    state: line.end === null ? 'running' : line.failed ? 'failed' : 'passed',
    commit: line.commit ?? null,
    command,
    started_at: line.at,
    ended_at: line.end,
    exit_code: line.exit_code ?? null,
    summary: line.summary,
    output_tail: line.output_tail ?? '',
  }
}
