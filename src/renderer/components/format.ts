import { isoFromSeconds as isoFromSecondsOrNull } from '../../shared/time'
import type { Usage } from '../../shared/transcript'

/*
 * Formatters made once: `toLocaleTimeString(locale, options)` and `Number#toLocaleString()`
 * build a new Intl formatter inside every call (about 170 µs and 35 µs in Chromium, against 4
 * and 2 µs for one made once), and the inbox and transcripts format a time for every entry.
 */
const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})
const numberFormat = new Intl.NumberFormat()

/** 1234567 → "1,234,567" in the person's locale. */
export function formatNumber(value: number): string {
  return numberFormat.format(value)
}

/** 1234 → "1.2k", 1_234_567 → "1.23M": compact enough for the roster. */
export function formatCount(count: number): string {
  if (count < 1000) return String(count)
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`
  return `${(count / 1_000_000).toFixed(2)}M`
}

export function formatTokens(usage: Usage): string {
  return `${formatCount(usage.input_tokens + usage.output_tokens)} tokens`
}

/** "1.2k / 50k tokens" against a limit, "1.2k tokens" (or "1 round") without one. */
export function formatSpend(used: number, limit: number | null, noun: 'token' | 'round'): string {
  if (limit !== null) return `${formatCount(used)} / ${formatCount(limit)} ${noun}s`
  return `${formatCount(used)} ${noun}${used === 1 ? '' : 's'}`
}

export function describeTokens(usage: Usage): string {
  return `${formatNumber(usage.input_tokens)} input + ${formatNumber(usage.output_tokens)} output tokens`
}

/** Mailbox timestamps are seconds since the epoch (as s09 writes them). */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—'
  return formatMillis(seconds * 1000)
}

/** The machine-readable form of a seconds timestamp, for <time dateTime>. */
export function isoFromSeconds(seconds: number): string {
  return isoFromSecondsOrNull(seconds) ?? ''
}

/** The time alone for today; the day and the time (to the minute) for an earlier day. */
export function formatMillis(millis: number, now: Date = new Date()): string {
  const date = new Date(millis)
  if (Number.isNaN(date.getTime())) return '—'
  return isSameDay(date, now) ? timeFormat.format(date) : dateTimeFormat.format(date)
}

function isSameDay(a: Date, b: Date): boolean {
  return (
    a.getDate() === b.getDate() &&
    a.getMonth() === b.getMonth() &&
    a.getFullYear() === b.getFullYear()
  )
}

/** The last path segments of a long folder path, for the header (the full path is the title). */
export function shortPath(path: string, keep = 3): string {
  const parts = path.split(/[\\/]/).filter((part) => part.length > 0)
  if (parts.length <= keep) return path
  return `…/${parts.slice(-keep).join('/')}`
}

/**
 * The last `count` lines of `text` (trailing whitespace dropped). Scans back from the end, so a
 * long streamed text costs only its tail: the activity panes call this for every frame.
 */
export function lastLines(text: string, count: number): string {
  const trimmed = text.trimEnd()
  let start = trimmed.length
  for (let found = 0; found < count; found++) {
    if (start === 0) return trimmed // the text begins with an empty line
    const newline = trimmed.lastIndexOf('\n', start - 1)
    if (newline < 0) return trimmed
    start = newline
  }
  return trimmed.slice(start + 1)
}

/** The initial shown in an agent's avatar. */
export function initial(name: string): string {
  return (name[0] ?? '?').toUpperCase()
}
