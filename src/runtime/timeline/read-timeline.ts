import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { LEAD, USER, isValidName } from '../../shared/names'
import type { PriceOverrides } from '../../shared/prices'
import type { RosterFile } from '../../shared/roster'
import type { Timeline, TimelineEntry, TimelineQuery } from '../../shared/timeline'
import type { Worktrees } from '../git/worktrees'
import { Mailbox } from '../mailbox/mailbox'
import { needsYouPath } from '../needs-you/store'
import { Roster } from '../roster/roster'
import { tasksDirectory } from '../tasks/task-files'
import type { TeamPaths } from '../team/paths'
import { needsYouEntries, taskEntries } from './board-entries'
import { gitEntries, type TeammateBranch } from './git-entries'
import { isTimelineTime } from './entry-parts'
import { inboxEntries } from './inbox-entries'
import { reactionEntries, scheduleEntries } from './log-entries'
import type { Delivery } from './transcript-entries'
import { readTranscripts } from './transcript-reads'
import { appendProblems } from './problem-list'

/** What the timeline is read from: the team's files, and the app's git for its branches. */
export interface TimelineFiles {
  readonly paths: TeamPaths
  /** The person's prices per model (settings); Claude's list prices apply to the rest. */
  readonly prices: PriceOverrides
  /** The app's git for the workspace, asked for only when a teammate has a worktree. */
  readonly worktrees: () => Worktrees
}

/** Everything read, before the query's filters: what the timeline and the digest share. */
export interface TeamRecord {
  readonly entries: TimelineEntry[]
  readonly problems: string[]
  /** Whether every transcript was read from its start (no older entries were left out). */
  readonly whole: boolean
  readonly span: Timeline['span']
  /** The Needs-you entries waiting on the person now. */
  readonly pending: ReturnType<typeof needsYouEntries>['pending']
}

/**
 * The team's timeline: every source read (transcripts from their ends as far as the query
 * needs, inboxes, the board, the queue, the logs, git), filtered, in order of time (ties keep
 * the order the records were read in), the newest `limit` kept.
 */
export async function readTimeline(files: TimelineFiles, query: TimelineQuery): Promise<Timeline> {
  const agents = query.agents === undefined ? null : new Set<string>(query.agents)
  const kinds = query.kinds === undefined ? null : new Set<string>(query.kinds)
  const matches = (entry: TimelineEntry): boolean =>
    (query.since === undefined || entry.at >= query.since) &&
    (query.until === undefined || entry.at < query.until) &&
    (agents === null ||
      agents.has(entry.agent) ||
      (entry.to !== undefined && agents.has(entry.to))) &&
    (kinds === null || kinds.has(entry.kind))
  const record = await readTeamRecord(files, query, matches)
  const matching = record.entries.filter(matches)
  const limit = query.limit
  const entries = limit !== undefined && matching.length > limit ? matching.slice(-limit) : matching
  return {
    entries,
    agents: lanesOf(entries),
    span: record.span,
    truncated: entries.length < matching.length || (limit !== undefined && !record.whole),
    problems: record.problems,
  }
}

/** Every source read and ordered; transcripts only as far back as `query` needs them. */
export async function readTeamRecord(
  files: TimelineFiles,
  query: Pick<TimelineQuery, 'since' | 'limit'>,
  matches: (entry: TimelineEntry) => boolean = () => true,
): Promise<TeamRecord> {
  const { paths } = files
  const problems: string[] = []
  const roster = readRoster(paths, problems)
  const names = agentNames(paths, roster)
  const groups: TimelineEntry[][] = []
  const deliveries = new Map<string, Map<string, Delivery>>()
  let whole = true
  let firstAt: number | null = null
  for (const read of readTranscripts(paths, names, files.prices, query, matches)) {
    groups.push(read.entries)
    deliveries.set(read.name, read.deliveries)
    appendProblems(problems, read.problems)
    whole &&= read.whole
    if (isTimelineTime(read.firstAt))
      firstAt = firstAt === null ? read.firstAt : Math.min(firstAt, read.firstAt)
  }
  const mailbox = new Mailbox(paths, { members: () => names })
  for (const name of names) {
    try {
      const read = await inboxEntries(mailbox, name, deliveries.get(name) ?? new Map())
      groups.push(read.entries)
      appendProblems(problems, read.problems)
    } catch (error) {
      problems.push(`${name}'s inbox: ${(error as Error).message}`)
    }
  }
  const tasks = guarded(() => taskEntries(tasksDirectory(paths.root)), 'the task board', problems)
  const queue = needsYouEntries(needsYouPath(paths))
  appendProblems(problems, queue.problems)
  groups.push(tasks, queue.entries)
  groups.push(guarded(() => reactionEntries(paths.root), 'the reactions log', problems))
  groups.push(guarded(() => scheduleEntries(paths.root), 'the schedule runs log', problems))
  const branches = teammateBranches(roster)
  if (branches.length > 0) {
    const read = await gitEntries(files.worktrees(), branches)
    groups.push(read.entries)
    appendProblems(problems, read.problems)
  }
  const entries = groups.flat().sort((a, b) => a.at - b.at)
  return { entries, problems, whole, span: spanOf(entries, firstAt), pending: queue.pending }
}

function guarded(
  read: () => { entries: TimelineEntry[]; problems: string[] },
  what: string,
  problems: string[],
): TimelineEntry[] {
  try {
    const result = read()
    appendProblems(problems, result.problems)
    return result.entries
  } catch (error) {
    problems.push(`${what}: ${(error as Error).message}`)
    return []
  }
}

function readRoster(paths: TeamPaths, problems: string[]): RosterFile | null {
  try {
    return Roster.read(paths)
  } catch (error) {
    problems.push((error as Error).message)
    return null
  }
}

/**
 * The lead, the roster's members, and anyone with a transcript or an inbox (a teammate removed
 * since still did what it did), by the name rule.
 */
function agentNames(paths: TeamPaths, roster: RosterFile | null): string[] {
  const names = new Set<string>([LEAD, ...(roster?.members.map((member) => member.name) ?? [])])
  for (const folder of [paths.inboxDirectory, dirname(paths.transcript(LEAD))])
    for (const file of listFolder(folder)) {
      const name = file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : ''
      if (isValidName(name) && name !== USER) names.add(name)
    }
  return [...names]
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch {
    return []
  }
}

function teammateBranches(roster: RosterFile | null): TeammateBranch[] {
  const branches: TeammateBranch[] = []
  for (const member of roster?.members ?? [])
    if (member.worktree) branches.push({ name: member.name, worktree: member.worktree })
  return branches
}

/** The lanes: the lead first, then by name. */
export function lanesOf(entries: readonly TimelineEntry[]): string[] {
  const lanes = new Set<string>()
  for (const entry of entries) lanes.add(entry.agent)
  const rest = [...lanes].filter((lane) => lane !== LEAD).sort()
  return lanes.has(LEAD) ? [LEAD, ...rest] : rest
}

function spanOf(entries: readonly TimelineEntry[], firstAt: number | null): Timeline['span'] {
  if (entries.length === 0) return null
  let start = entries[0]?.at ?? 0
  let end = start
  for (const entry of entries) end = Math.max(end, entry.end ?? entry.at, entry.at)
  if (firstAt !== null && firstAt < start && firstAt >= 0) start = firstAt
  return { start, end }
}
