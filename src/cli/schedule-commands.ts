import { statSync } from 'node:fs'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import { nameProblem } from '../shared/names'
import {
  describeCaps,
  describeWhen,
  MISSED_POLICIES,
  OVERLAP_POLICIES,
  parseTime,
  type ScheduleInput,
  type ScheduleView,
} from '../shared/schedules'
import { DURATION_RULE, parseDuration } from '../shared/duration'
import { formatSecondsUtc } from '../shared/time'
import type { ScheduleRunLine } from '../shared/unattended-log'
import { settingsPath } from '../runtime/model/config'
import { cronProblem } from '../runtime/schedules/occurrences'
import { readRunLinesFrom, runLogPath } from '../runtime/schedules/run-log'
import {
  addSchedule,
  findSchedule,
  readSchedules,
  removeSchedule,
  scheduleFromInput,
} from '../runtime/schedules/schedule-file'
import { scheduleListing, stateFromFiles } from '../runtime/schedules/schedule-views'
import { isTeamRunning } from '../runtime/team/team'
import { TeamPaths } from '../runtime/team/paths'
import { TemplateStore } from '../runtime/templates/template-store'
import { inspectTrust } from '../runtime/trust/workspace-trust'
import { parseUsd } from './budget-command'
import type { CommandContext } from './commands'
import { sendControl } from './control-commands'
import { oneLine, UsageError, writeLine } from './output'
import { trustStoreFor } from './workspace-trust'

type Command = (context: CommandContext) => Promise<number>

const USAGE =
  'expected "schedule add <name> (--at TIME | --in DURATION | --every DURATION | --cron EXPR) --prompt TEXT", "schedule list", "schedule remove <name>" or "schedule run-now <name>"'

/** `agent-teams schedule add|list|remove|run-now`: the team's scheduled runs. */
export const schedule: Command = async (context) => {
  const [verb, ...rest] = context.positionals
  const sub = { ...context, positionals: rest }
  if (verb === 'add') return add(sub)
  if (verb === 'list') return list(sub)
  if (verb === 'remove') return remove(sub)
  if (verb === 'run-now') return runNow(sub)
  throw new UsageError(USAGE)
}

function oneName(context: CommandContext, verb: string): string {
  if (context.positionals.length !== 1)
    throw new UsageError(`expected "schedule ${verb} <name>" (one name)`)
  const name = context.positionals[0] ?? ''
  const problem = nameProblem(name)
  if (problem !== null)
    throw new UsageError(`${problem} (a schedule's name follows the agent name rule)`)
  return name
}

function trustOf(paths: TeamPaths): ReturnType<typeof inspectTrust> {
  return inspectTrust(paths, { store: trustStoreFor(), forRun: false }, process.env)
}

/** The `when` the options give: exactly one of --at, --in, --every, --cron. */
function whenOf(context: CommandContext): ScheduleInput['when'] {
  const { at, in: delay, every, cron } = context.options
  const given = [at, delay, every, cron].filter((value) => value !== undefined)
  if (given.length !== 1)
    throw new UsageError(
      `give exactly one of --at TIME, --in DURATION, --every DURATION or --cron "m h dom mon dow" (${given.length} given)`,
    )
  if (at !== undefined) {
    const time = parseTime(at, Date.now())
    if ('problem' in time) throw new UsageError(`--at: ${time.problem}`)
    if (time.at <= Date.now() / 1000)
      throw new UsageError(`--at: ${at} has passed; give a time in the future`)
    return { type: 'at', at: time.at }
  }
  if (cron !== undefined) {
    const problem = cronProblem(cron)
    if (problem !== null) throw new UsageError(`--cron: ${problem}`)
    return { type: 'cron', cron }
  }
  const option = delay !== undefined ? '--in' : '--every'
  const text = delay ?? every ?? ''
  const seconds = parseDuration(text)
  if (seconds === null) throw new UsageError(`${option} takes ${DURATION_RULE}, not "${text}"`)
  return delay !== undefined ? { type: 'in', seconds } : { type: 'every', seconds }
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  option: string,
): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${option} takes ${allowed.join(' or ')}, not "${value}"`)
  return value as T
}

function tokensOf(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined
  if (value === 'none') return null
  const tokens = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(tokens) || tokens < 1)
    throw new UsageError('--tokens takes a whole number of tokens of at least 1, or "none"')
  return tokens
}

const add: Command = async (context) => {
  const name = oneName(context, 'add')
  const { options } = context
  if (options.prompt === undefined || options.prompt.trim() === '')
    throw new UsageError('--prompt TEXT is needed: what the run sends to the lead')
  const input: ScheduleInput = {
    name,
    when: whenOf(context),
    prompt: options.prompt,
    ...(options.template === undefined ? {} : { template: options.template }),
    ...optional('usd', parseUsd(options.usd)),
    ...optional('tokens', tokensOf(options.tokens)),
    ...optional('missed', oneOf(options.missed, MISSED_POLICIES, '--missed')),
    ...optional('overlap', oneOf(options.overlap, OVERLAP_POLICIES, '--overlap')),
  }
  if (input.when.type === 'every' && input.when.seconds < 60)
    throw new UsageError('--every is at least 1m: a run is a whole team at work')
  if (input.template !== undefined && input.template !== null)
    TemplateStore.inConfigFolder(dirname(settingsPath())).get(input.template)
  const paths = new TeamPaths(options.workspace)
  const made = scheduleFromInput(input, Date.now() / 1000)
  // The person's own change keeps a trusted workspace trusted.
  trustOf(paths).keep(() => addSchedule(paths, made))
  const next = scheduleListing(
    stateFromFiles(paths, Date.now() / 1000, false),
    true,
  ).schedules.find((view) => view.schedule.name === name)
  await writeLine(
    context.output.stdout,
    options.json
      ? JSON.stringify(next)
      : `Added the schedule ${name}: ${describeWhen(made.when)}, next run ${next?.next_run == null ? 'never' : formatSecondsUtc(next.next_run)}, cap ${describeCaps(made.caps)}${options.usd === undefined && options.tokens === undefined ? ' (the default)' : ''}. It runs in the window or "agent-teams serve" while the workspace is trusted.`,
  )
  return 0
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
}

const list: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('schedule list takes no arguments')
  const paths = new TeamPaths(context.options.workspace)
  const now = Date.now() / 1000
  const listing = scheduleListing(
    stateFromFiles(paths, now, isTeamRunning(paths)),
    trustOf(paths).isTrusted(),
  )
  if (context.options.json) {
    await writeLine(context.output.stdout, JSON.stringify(listing))
    return listing.problem === null ? 0 : 1
  }
  const lines: string[] = []
  if (listing.problem !== null) lines.push(`! ${oneLine(listing.problem)}`)
  if (listing.schedules.length === 0 && listing.problem === null)
    lines.push(`No schedules in ${paths.workspace} (add one with "agent-teams schedule add").`)
  if (!listing.trusted && listing.schedules.length > 0)
    lines.push(
      'Not running: this workspace is not trusted yet. See what it grants with "agent-teams trust"; trust it with "agent-teams trust --yes".',
    )
  for (const view of listing.schedules) lines.push(...describe(view, now))
  await writeLine(context.output.stdout, lines.join('\n'))
  return listing.problem === null ? 0 : 1
}

function describe(view: ScheduleView, now: number): string[] {
  const { schedule } = view
  const next =
    view.next_run === null
      ? schedule.enabled
        ? 'no next run'
        : 'off'
      : `next ${formatSecondsUtc(view.next_run)}${view.next_run <= now ? ' (due: runs when a team runs)' : ''}`
  const last =
    view.last_run === null
      ? 'never ran'
      : `last ${view.last_run.event} ${formatSecondsUtc(view.last_run.at)}: ${oneLine(view.last_run.summary)}`
  return [
    `${schedule.name} [${view.state}] ${describeWhen(schedule.when)}; ${next}; cap ${describeCaps(schedule.caps)}; missed ${schedule.missed}; overlap ${schedule.overlap}${schedule.template === null ? '' : `; template ${schedule.template}`}`,
    `    prompt: ${oneLine(schedule.prompt.length > 200 ? `${schedule.prompt.slice(0, 200)}…` : schedule.prompt)}`,
    `    ${last}`,
  ]
}

const remove: Command = async (context) => {
  const name = oneName(context, 'remove')
  const paths = new TeamPaths(context.options.workspace)
  trustOf(paths).keep(() => removeSchedule(paths, name))
  await writeLine(context.output.stdout, `Removed the schedule ${name}.`)
  return 0
}

/** How long run-now waits for the running team to log what it did. */
const RUN_WAIT_MS = 10_000

/**
 * Asks the running team (through control.jsonl) to run a schedule now, and reports what its
 * log then says happened: started, waiting for the run before it, or skipped.
 */
const runNow: Command = async (context) => {
  const name = oneName(context, 'run-now')
  const paths = new TeamPaths(context.options.workspace)
  const reading = readSchedules(paths)
  if (reading.problem !== null) throw new TeamError('file-invalid', reading.problem)
  findSchedule(paths, reading.schedules, name)
  if (!isTeamRunning(paths))
    throw new TeamError(
      'not-running',
      `No team is running in ${paths.workspace}: a scheduled run needs one (start it with the app or "agent-teams serve").`,
    )
  if (!trustOf(paths).isTrusted())
    throw new TeamError(
      'not-permitted',
      'Schedules do not run in a workspace you have not trusted: see "agent-teams trust", then "agent-teams trust --yes".',
    )
  const from = logSize(paths)
  sendControl(paths, { command: 'run-schedule', schedule: name })
  const line = await awaitLine(paths, name, from)
  await writeLine(
    context.output.stdout,
    context.options.json ? JSON.stringify(line) : `${line.event}: ${oneLine(line.summary)}`,
  )
  return line.event === 'skipped' ? 1 : 0
}

function logSize(paths: TeamPaths): number {
  try {
    return statSync(runLogPath(paths)).size
  } catch {
    return 0
  }
}

async function awaitLine(paths: TeamPaths, name: string, from: number): Promise<ScheduleRunLine> {
  const deadline = Date.now() + RUN_WAIT_MS
  for (;;) {
    const line = readRunLinesFrom(paths, from).find(
      (candidate) =>
        candidate.schedule === name &&
        (candidate.event === 'started' ||
          candidate.event === 'waiting' ||
          candidate.event === 'skipped'),
    )
    if (line !== undefined) return line
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not started ${name} after ${RUN_WAIT_MS / 1000} s. Schedules run in the window or "agent-teams serve" (not "chat"); its window shows why.`,
      )
    await sleep(50)
  }
}
