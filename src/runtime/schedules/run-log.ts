import { closeSync, fstatSync, readSync } from 'node:fs'
import { join } from 'node:path'
import {
  SCHEDULE_RUNS_LOG,
  scheduleRunLineSchema,
  type ScheduleRunLine,
} from '../../shared/unattended-log'
import { appendOnceSync } from '../fs/durable'
import { openRegularForReadSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

/**
 * How much of the log is read: its last 16 MiB (about 60,000 lines), which holds the latest
 * lines of every schedule unless one has not run for a very long time (then its next due time
 * is counted from its own making or last change, and at most one catch-up run follows).
 */
const TAIL_BYTES = 16 * 1024 * 1024

export function runLogPath(paths: TeamPaths): string {
  return join(paths.root, SCHEDULE_RUNS_LOG)
}

/** One line, one write(2) on an O_APPEND descriptor: lines of two processes never mix. */
export function appendRunLine(paths: TeamPaths, line: ScheduleRunLine): void {
  appendOnceSync(runLogPath(paths), `${JSON.stringify(line)}\n`)
}

/** What the log says of one schedule. */
export interface ScheduleRecord {
  /** The latest due time the runtime dealt with (started or skipped), or null. */
  readonly lastDue: number | null
  /** The last line of its latest run (a `skipped` line is a run of its own). */
  readonly lastLine: ScheduleRunLine | null
}

export interface RunLogReading {
  readonly records: ReadonlyMap<string, ScheduleRecord>
  /** Lines refused: not JSON, not this shape, or dated after `nowSeconds`. */
  readonly refused: number
  /** Why the log could not be read at all, or null. */
  readonly problem: string | null
}

/**
 * Reads the log's tail, line by line: a line that is not JSON or not the shape is counted and
 * left out, and so is one dated in the future (nothing the runtime wrote can be), so a forged
 * line can hold a schedule back only until its date, never make it run.
 */
export function readRunLog(paths: TeamPaths, nowSeconds: number): RunLogReading {
  const records = new Map<string, { lastDue: number | null; lastLine: ScheduleRunLine | null }>()
  let text: string
  try {
    text = readTail(runLogPath(paths))
  } catch (error) {
    return { records, refused: 0, problem: error instanceof Error ? error.message : String(error) }
  }
  let refused = 0
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue
    const line = parseLine(raw)
    if (line === null || line.at > nowSeconds + 60) {
      refused += 1
      continue
    }
    const record = records.get(line.schedule) ?? { lastDue: null, lastLine: null }
    // A run that waited when the app closed never started: its due time is still owed.
    const due = line.event === 'started' || line.event === 'skipped' ? (line.due ?? line.at) : null
    if (due !== null && due <= nowSeconds + 60) record.lastDue = Math.max(record.lastDue ?? 0, due)
    record.lastLine = line
    records.set(line.schedule, record)
  }
  return { records, refused, problem: null }
}

/** The valid lines appended after byte `offset` (what a process waits for after asking). */
export function readRunLinesFrom(paths: TeamPaths, offset: number): ScheduleRunLine[] {
  const fd = openRegularForReadSync(runLogPath(paths), { what: 'The schedules’ run log' })
  if (fd === null) return []
  try {
    const size = fstatSync(fd).size
    if (size <= offset) return []
    const data = Buffer.allocUnsafe(Math.min(size - offset, TAIL_BYTES))
    const read = readSync(fd, data, 0, data.length, offset)
    return data
      .subarray(0, read)
      .toString('utf8')
      .split('\n')
      .flatMap((raw) => {
        const line = raw.trim() === '' ? null : parseLine(raw)
        return line === null ? [] : [line]
      })
  } finally {
    closeSync(fd)
  }
}

function parseLine(raw: string): ScheduleRunLine | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  const parsed = scheduleRunLineSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** The file's last TAIL_BYTES as text, from its first whole line; '' when there is none. */
function readTail(path: string): string {
  const fd = openRegularForReadSync(path, { what: 'The schedules’ run log' })
  if (fd === null) return ''
  try {
    const size = fstatSync(fd).size
    const start = Math.max(0, size - TAIL_BYTES)
    const data = Buffer.allocUnsafe(size - start)
    let offset = 0
    while (offset < data.length) {
      const read = readSync(fd, data, offset, data.length - offset, start + offset)
      if (read === 0) break
      offset += read
    }
    const text = data.subarray(0, offset).toString('utf8')
    // Cut into a line: its start is dropped; the rest is whole lines.
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1)
  } finally {
    closeSync(fd)
  }
}
