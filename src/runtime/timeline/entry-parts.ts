import { createHash } from 'node:crypto'
import type { TimelineEntry } from '../../shared/timeline'

/** The latest time an entry may have: what every record under `.team/` checks (seconds). */
const LATEST_SECONDS = 1e11

/** Whether `seconds` is a time a record can hold: a finite time from 1970 to year 5138. */
export function isTimelineTime(seconds: unknown): seconds is number {
  return (
    typeof seconds === 'number' &&
    Number.isFinite(seconds) &&
    seconds >= 0 &&
    seconds <= LATEST_SECONDS
  )
}

/** A run of whitespace, or whitespace that is not a plain space: what a summary folds. */
const FOLDED = /\s{2}|[^\S ]/

/** `text` on one line, at most `max` characters (an ellipsis says it was cut). */
export function oneLineSummary(text: string, max = 200): string {
  // Only the start can be shown: a long text is not scanned whole.
  let line = text.length > max * 2 ? text.slice(0, max * 2) : text
  if (FOLDED.test(line)) line = line.replace(/\s+/g, ' ')
  if (line.charCodeAt(0) === 32 || line.charCodeAt(line.length - 1) === 32) line = line.trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/** An id made of parts; a part that would make it too long is replaced by its hash. */
export function entryId(...parts: readonly (string | number)[]): string {
  const id = parts.join(':')
  if (id.length <= 300) return id
  return `${String(parts[0])}:#${createHash('sha256').update(id).digest('hex').slice(0, 32)}`
}

/** A token count a hostile file may give as anything: a whole number from 0. */
export function tokenCount(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return 0
  return Math.min(Math.round(value), Number.MAX_SAFE_INTEGER)
}

/** What every entry has, with the kind's own fields beside. */
export type EntryBase = Pick<TimelineEntry, 'id' | 'at' | 'kind' | 'agent' | 'summary' | 'source'>

export function entry(
  base: EntryBase,
  more: Partial<Omit<TimelineEntry, keyof EntryBase>> = {},
): TimelineEntry {
  return { end: null, failed: false, ...base, summary: oneLineSummary(base.summary, 500), ...more }
}
