import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../shared/json-limits'
import {
  DEFAULT_CAP_USD,
  MAX_SCHEDULES,
  SCHEDULES_VERSION,
  scheduleInputSchema,
  schedulesFileSchema,
  type Schedule,
  type ScheduleInput,
  type SchedulesFile,
} from '../../shared/schedules'
import { writeFileAtomicSync } from '../fs/durable'
import { acquireFileLock } from '../fs/file-lock'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { assertRealTeamFolder } from '../fs/team-folder'
import type { TeamPaths } from '../team/paths'
import { cronProblem } from './occurrences'

/** What `.team/schedules.json` holds, or why it cannot be used (then nothing in it runs). */
export interface SchedulesReading {
  readonly schedules: readonly Schedule[]
  readonly problem: string | null
}

export function schedulesPath(paths: TeamPaths): string {
  return paths.schedules
}

/**
 * Reads `.team/schedules.json`: absent is no schedules. Anything can be put there (a cloned
 * repository's file, a hand edit), so a file that is not a regular file, not JSON, nested too
 * deep, of another version, or with any schedule out of its rules is refused whole with the
 * reason: none of it runs, and no change is written over it until it is moved aside or fixed.
 */
export function readSchedules(paths: TeamPaths): SchedulesReading {
  const file = schedulesPath(paths)
  const refused = (why: string): SchedulesReading => ({
    schedules: [],
    problem: `${file} ${why}; no schedule runs until it is fixed or moved aside (it is never overwritten).`,
  })
  let text: string | null
  try {
    text = readRegularTextSync(file, { what: 'The schedules file', maxBytes: FILE_CAPS.record })
  } catch (error) {
    return { schedules: [], problem: error instanceof Error ? error.message : String(error) }
  }
  if (text === null) return { schedules: [], problem: null }
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH))
    return refused(`is nested more than ${MAX_JSON_DEPTH} levels deep`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return refused(`is not valid JSON (${(error as Error).message})`)
  }
  const version = (value as { v?: unknown } | null)?.v
  if (typeof value === 'object' && value !== null && version !== SCHEDULES_VERSION)
    return refused(
      `has format version ${JSON.stringify(version) ?? 'none'}; this app reads version ${SCHEDULES_VERSION}`,
    )
  const parsed = schedulesFileSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return refused(`is not valid (${where}${issue?.message ?? 'invalid'})`)
  }
  for (const schedule of parsed.data.schedules)
    if (schedule.when.type === 'cron') {
      const problem = cronProblem(schedule.when.cron)
      if (problem !== null) return refused(`is not valid (schedule ${schedule.name}: ${problem})`)
    }
  return { schedules: parsed.data.schedules, problem: null }
}

/**
 * The schedule `input` asks for, checked as the file's rules check it: `in` becomes the time it
 * ends, caps left out are $5, an `at` in the past and a cron that never occurs are refused.
 */
export function scheduleFromInput(input: ScheduleInput, nowSeconds: number): Schedule {
  const parsed = scheduleInputSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new TeamError(
      'invalid-argument',
      `The schedule is not valid: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}.`,
    )
  }
  const { when, prompt } = parsed.data
  if (prompt.trim() === '')
    throw new TeamError('invalid-argument', 'The prompt is empty: say what the lead should do.')
  if (when.type === 'at' && when.at <= nowSeconds)
    throw new TeamError('invalid-argument', 'That time has passed: give one in the future.')
  if (when.type === 'cron') {
    const problem = cronProblem(when.cron)
    if (problem !== null) throw new TeamError('invalid-argument', problem)
  }
  const noCap = parsed.data.usd === undefined && parsed.data.tokens === undefined
  const caps = {
    usd: noCap ? DEFAULT_CAP_USD : (parsed.data.usd ?? null),
    tokens: parsed.data.tokens ?? null,
  }
  if (caps.usd === null && caps.tokens === null)
    throw new TeamError(
      'invalid-argument',
      'Every run needs a cap: give a dollar cap, a token cap, or both.',
    )
  return {
    name: parsed.data.name,
    when:
      when.type === 'in'
        ? { type: 'at', at: nowSeconds + when.seconds }
        : when.type === 'cron'
          ? { type: 'cron', cron: when.cron.trim().split(/\s+/).join(' ') }
          : when,
    prompt,
    template: parsed.data.template ?? null,
    caps,
    missed: parsed.data.missed ?? 'run-once',
    overlap: parsed.data.overlap ?? 'wait',
    enabled: parsed.data.enabled ?? true,
    created_at: nowSeconds,
    updated_at: nowSeconds,
  }
}

/** Adds a schedule; a name already there is refused (remove it first). */
export function addSchedule(paths: TeamPaths, schedule: Schedule): Schedule {
  return changeSchedules(paths, (schedules) => {
    if (schedules.some((existing) => existing.name === schedule.name))
      throw new TeamError(
        'already-exists',
        `There is already a schedule "${schedule.name}"; remove it first, or choose another name.`,
      )
    if (schedules.length >= MAX_SCHEDULES)
      throw new TeamError('limit-reached', `A team keeps at most ${MAX_SCHEDULES} schedules.`)
    return { schedules: [...schedules, schedule], result: schedule }
  })
}

export function removeSchedule(paths: TeamPaths, name: string): Schedule {
  return changeSchedules(paths, (schedules) => {
    const found = findSchedule(paths, schedules, name)
    return { schedules: schedules.filter((schedule) => schedule !== found), result: found }
  })
}

/** Turns a schedule on or off; runs due while it was off are not owed when it comes back. */
export function setScheduleEnabled(
  paths: TeamPaths,
  name: string,
  enabled: boolean,
  nowSeconds: number,
): Schedule {
  return changeSchedules(paths, (schedules) => {
    const found = findSchedule(paths, schedules, name)
    if (found.enabled === enabled) return { schedules, result: found }
    const changed = { ...found, enabled, updated_at: nowSeconds }
    return {
      schedules: schedules.map((schedule) => (schedule === found ? changed : schedule)),
      result: changed,
    }
  })
}

export function findSchedule(
  paths: TeamPaths,
  schedules: readonly Schedule[],
  name: string,
): Schedule {
  const found = schedules.find((schedule) => schedule.name === name)
  if (found === undefined)
    throw new TeamError(
      'not-found',
      `There is no schedule "${name}" in ${paths.workspace} (see "agent-teams schedule list").`,
    )
  return found
}

/** How long a change waits for another process's change before it gives up. */
const LOCK_WAIT_MS = 5000
const sleeper = new Int32Array(new SharedArrayBuffer(4))

/**
 * Reads, changes and replaces the file under `.team/schedules.lock`, so that two processes (the
 * window and a shell) never lose each other's change. A file that cannot be used is refused,
 * never overwritten.
 */
function changeSchedules<T>(
  paths: TeamPaths,
  change: (schedules: readonly Schedule[]) => { schedules: readonly Schedule[]; result: T },
): T {
  mkdirSync(paths.root, { recursive: true })
  assertRealTeamFolder(paths.root)
  const lockPath = join(paths.root, 'schedules.lock')
  const deadline = Date.now() + LOCK_WAIT_MS
  let holder = 'another process'
  for (let attempt = 0; ; attempt++) {
    let lock
    try {
      lock = acquireFileLock(
        lockPath,
        'change the schedules',
        (who) => (holder = who),
        'schedules-busy',
      )
    } catch (error) {
      if (!(error instanceof TeamError) || error.code !== 'schedules-busy') throw error
      if (Date.now() > deadline)
        throw new TeamError(
          'schedules-busy',
          `The schedules are busy: ${holder} has held ${lockPath} for over ${LOCK_WAIT_MS / 1000} s.`,
        )
      Atomics.wait(sleeper, 0, 0, 1 + Math.min(20, 2 + attempt))
      continue
    }
    try {
      const reading = readSchedules(paths)
      if (reading.problem !== null) throw new TeamError('file-invalid', reading.problem)
      const next = change(reading.schedules)
      const file: SchedulesFile = { v: SCHEDULES_VERSION, schedules: [...next.schedules] }
      writeFileAtomicSync(schedulesPath(paths), `${JSON.stringify(file, null, 2)}\n`)
      return next.result
    } finally {
      lock.release()
    }
  }
}
