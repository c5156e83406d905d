import { formatUsd } from '../shared/cost'
import { parseDuration } from '../shared/duration'
import { isValidName, NAME_RULE } from '../shared/names'
import { formatSecondsUtc, isoFromSeconds } from '../shared/time'
import {
  TIMELINE_KINDS,
  type AwayDigest,
  type TimelineEntry,
  type TimelineKind,
} from '../shared/timeline'
import { appDataFolder, workspaceDataFolder } from '../runtime/fs/app-folders'
import { Worktrees } from '../runtime/git/worktrees'
import { readSettings, settingsPath } from '../runtime/model/config'
import { awayDigest, FIRST_DIGEST_SECONDS } from '../runtime/timeline/away-digest'
import { readTimeline, type TimelineFiles } from '../runtime/timeline/read-timeline'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'

/**
 * `--since`: a date (`2026-12-01`, `2026-12-01T18:00Z`) or a duration back from now (`90s`,
 * `30m`, `1h`, `2d`, `1w`), as seconds since the epoch.
 */
export function parseSince(text: string, nowSeconds: number): number {
  const duration = parseDuration(text)
  if (duration !== null) return Math.max(0, nowSeconds - duration)
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN
  if (Number.isNaN(time) || time < 0)
    throw new UsageError(
      '--since takes a date such as 2026-12-01 or 2026-12-01T18:00Z, or a duration such as 30m, 1h, 2d',
    )
  return time / 1000
}

function parseKinds(text: string): TimelineKind[] {
  const kinds = text.split(',').map((kind) => kind.trim())
  for (const kind of kinds)
    if (!(TIMELINE_KINDS as readonly string[]).includes(kind))
      throw new UsageError(
        `--kind takes ${TIMELINE_KINDS.join(', ')} (commas for several); got "${kind}"`,
      )
  return kinds as TimelineKind[]
}

function parseAgents(text: string): string[] {
  const agents = text.split(',').map((agent) => agent.trim())
  for (const agent of agents)
    if (!isValidName(agent) && agent !== 'app')
      throw new UsageError(`--agent takes agent names (${NAME_RULE}); got "${agent}"`)
  return agents
}

/** The team's files, read without opening the team (a running one keeps writing them). */
function timelineFiles(workspace: string): TimelineFiles {
  const paths = new TeamPaths(workspace)
  let prices = {}
  try {
    prices = readSettings(settingsPath(process.env)).prices ?? {}
  } catch {
    // Unreadable settings price with Claude's list prices, as the app does.
  }
  return {
    paths,
    prices,
    worktrees: () =>
      new Worktrees({
        workspace: paths.workspace,
        dataFolder: workspaceDataFolder(appDataFolder(process.env), paths.workspace),
      }),
  }
}

/** One entry for people: time, lane, kind, summary, and how it ended. */
function describe(entry: TimelineEntry): string {
  const state = entry.delivery ? ` [${entry.delivery.state}]` : entry.failed ? ' [failed]' : ''
  const cost = entry.usd ? ` ${formatUsd(entry.usd)}` : ''
  return `${formatSecondsUtc(entry.at)}  ${oneLine(entry.agent).padEnd(12)} ${entry.kind.padEnd(10)} ${oneLine(entry.summary)}${state}${cost}`
}

/** One entry as a JSON line: its fields, with `at` (and `end`) as ISO times and `seconds` kept. */
function jsonLine(entry: TimelineEntry): string {
  return JSON.stringify({
    ...entry,
    at: isoFromSeconds(entry.at) ?? String(entry.at),
    end: entry.end === null ? null : (isoFromSeconds(entry.end) ?? String(entry.end)),
    seconds: entry.at,
  })
}

function digestText(digest: AwayDigest): string {
  const lines = [
    `While you were away (${formatSecondsUtc(digest.since)} to ${formatSecondsUtc(digest.until)}):`,
  ]
  const section = (title: string, items: readonly { agent: string; summary: string }[]) => {
    lines.push(`${title}: ${items.length === 0 ? 'nothing' : ''}`.trimEnd())
    for (const item of items) lines.push(`  ${oneLine(item.agent)}: ${oneLine(item.summary)}`)
  }
  section('Finished', digest.finished)
  section('Failed', digest.failed)
  section('Waiting for you', digest.waiting)
  lines.push(`Spent: ${formatUsd(digest.usd)}, ${digest.tokens.toLocaleString('en')} tokens`)
  const counts = Object.entries(digest.counts)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ')
  lines.push(`Entries: ${counts || 'none'}`)
  return lines.join('\n')
}

/**
 * `agent-teams timeline`: everything the team did, in order, from its files (no running team
 * needed); `--summary`: what finished, failed, waits and cost since `--since` (default: the last
 * day).
 */
export async function timeline(context: CommandContext): Promise<number> {
  if (context.positionals.length > 0)
    throw new UsageError(`takes no arguments (got "${context.positionals.join(' ')}")`)
  const { options } = context
  const now = Date.now() / 1000
  const since = options.since === undefined ? undefined : parseSince(options.since, now)
  const kinds = options.kind === undefined ? undefined : parseKinds(options.kind)
  const agents = options.agent === undefined ? undefined : parseAgents(options.agent)
  const files = timelineFiles(options.workspace)
  const stdout = context.output.stdout
  if (options.summary) {
    if (kinds !== undefined || agents !== undefined)
      throw new UsageError('--summary covers the whole team; it takes only --since')
    const digest = await awayDigest(files, {
      since: since ?? now - FIRST_DIGEST_SECONDS,
      until: now,
    })
    await writeLine(stdout, options.json ? JSON.stringify(digest) : digestText(digest))
    return 0
  }
  const result = await readTimeline(files, { since, kinds, agents })
  for (const problem of result.problems)
    await writeLine(context.output.stderr, `agent-teams timeline: ${problem}`)
  if (!options.json && result.entries.length === 0) {
    await writeLine(
      stdout,
      `Nothing on the timeline of ${files.paths.workspace}${since === undefined ? '' : ' in that range'}.`,
    )
    return 0
  }
  // Written a thousand lines at a time: a long timeline is not a write per line.
  for (let start = 0; start < result.entries.length; start += 1000) {
    const lines = result.entries.slice(start, start + 1000)
    await writeLine(stdout, lines.map(options.json ? jsonLine : describe).join('\n'))
  }
  return 0
}
