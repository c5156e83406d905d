import type { Schedule, ScheduleListing, ScheduleView } from '../../shared/schedules'
import type { TeamPaths } from '../team/paths'
import { nextOccurrence } from './occurrences'
import { readRunLog, type ScheduleRecord } from './run-log'
import { readSchedules } from './schedule-file'

/** What a listing is made of: the file as read, the log's records, and which runs are live. */
export interface ScheduleState {
  readonly schedules: readonly Schedule[]
  readonly problem: string | null
  readonly records: ReadonlyMap<string, ScheduleRecord>
  /** The schedule whose run works now, and those waiting for it (known only to a running team). */
  readonly running: string | null
  readonly waiting: readonly string[]
}

/** Each schedule with its next due time, its last run's last line and its state. */
export function scheduleListing(state: ScheduleState, trusted: boolean): ScheduleListing {
  return {
    schedules: state.schedules.map((schedule) => viewOf(schedule, state)),
    problem: state.problem,
    trusted,
  }
}

function viewOf(schedule: Schedule, state: ScheduleState): ScheduleView {
  const record = state.records.get(schedule.name)
  const dealtWith = Math.max(record?.lastDue ?? 0, schedule.updated_at)
  return {
    schedule,
    next_run: schedule.enabled
      ? nextOccurrence(schedule.when, schedule.created_at, dealtWith)
      : null,
    last_run: record?.lastLine ?? null,
    state:
      state.running === schedule.name
        ? 'running'
        : state.waiting.includes(schedule.name)
          ? 'waiting'
          : 'idle',
  }
}

/**
 * The state as the files say it, for a process that does not run the team (the CLI): a run
 * whose last line is `started` works while a team runs; one that last `waiting` waits.
 */
export function stateFromFiles(
  paths: TeamPaths,
  nowSeconds: number,
  teamRunning: boolean,
): ScheduleState {
  const reading = readSchedules(paths)
  const log = readRunLog(paths, nowSeconds)
  const live = (event: string): string[] =>
    teamRunning
      ? reading.schedules
          .filter((schedule) => log.records.get(schedule.name)?.lastLine?.event === event)
          .map((schedule) => schedule.name)
      : []
  return {
    schedules: reading.schedules,
    problem: reading.problem ?? log.problem,
    records: log.records,
    running: live('started')[0] ?? null,
    waiting: live('waiting'),
  }
}
