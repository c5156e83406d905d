import { Cron } from 'croner'
import { TeamError } from '../../shared/errors'
import type { Schedule, ScheduleWhen } from '../../shared/schedules'

/** The most due times counted when telling how many runs were missed (more is "over 1000"). */
const MAX_COUNTED = 1000

/**
 * A cron expression of five fields (minute, hour, day of month, month, day of week), checked by
 * croner; why it is not one, or null. One that never occurs (`0 0 31 2 *`) is refused too.
 */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/)
  if (fields.length !== 5)
    return `"${expression}" has ${fields.length} field${fields.length === 1 ? '' : 's'}; a cron expression has five: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5")`
  let cron: Cron
  try {
    cron = new Cron(expression.trim(), { paused: true })
  } catch (error) {
    return `"${expression}" is not a cron expression: ${(error as Error).message.replace(/^CronPattern: /, '')}`
  }
  if (cron.nextRun() === null) return `"${expression}" never occurs`
  return null
}

export function assertCron(expression: string): void {
  const problem = cronProblem(expression)
  if (problem !== null) throw new TeamError('invalid-argument', problem)
}

/** The first time `when` is due strictly after `after` (seconds), or null: never again. */
export function nextOccurrence(when: ScheduleWhen, anchor: number, after: number): number | null {
  switch (when.type) {
    case 'at':
      return when.at > after ? when.at : null
    case 'every': {
      // Anchored at the schedule's making, so a restart does not move the grid.
      if (after < anchor) return anchor + when.seconds
      const steps = Math.floor((after - anchor) / when.seconds) + 1
      return anchor + steps * when.seconds
    }
    case 'cron': {
      const next = new Cron(when.cron, { paused: true }).nextRun(new Date(after * 1000))
      return next === null ? null : next.getTime() / 1000
    }
  }
}

/**
 * The due times of `schedule` in (`after`, `until`]: how many (up to 1000) and the latest. What
 * the runtime owes for them is one run at most, whatever the count.
 */
export function dueBetween(
  schedule: Schedule,
  after: number,
  until: number,
): { count: number; latest: number } | null {
  const anchor = schedule.created_at
  const first = nextOccurrence(schedule.when, anchor, after)
  if (first === null || first > until) return null
  if (schedule.when.type === 'every') {
    const count = Math.floor((until - first) / schedule.when.seconds) + 1
    return { count, latest: first + (count - 1) * schedule.when.seconds }
  }
  let count = 1
  let latest = first
  for (;;) {
    const next = nextOccurrence(schedule.when, anchor, latest)
    if (next === null || next > until) return { count, latest }
    latest = next
    count += 1
    if (count >= MAX_COUNTED) {
      // Too many to walk: the latest is the last one before `until`, found from there.
      const last = lastBefore(schedule.when, until)
      return { count, latest: last ?? latest }
    }
  }
}

/** The latest cron occurrence at or before `until` (for a count cut short). */
function lastBefore(when: ScheduleWhen, until: number): number | null {
  if (when.type !== 'cron') return null
  const previous = new Cron(when.cron, { paused: true }).previousRuns(1, new Date(until * 1000 + 1))
  return previous[0] === undefined ? null : previous[0].getTime() / 1000
}
