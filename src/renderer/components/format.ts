import type { Usage } from '../../shared/transcript'

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
  return `${usage.input_tokens.toLocaleString()} input + ${usage.output_tokens.toLocaleString()} output tokens`
}

/** Mailbox timestamps are seconds since the epoch (as s09 writes them). */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—'
  return formatMillis(seconds * 1000)
}

/** The machine-readable form of a seconds timestamp, for <time dateTime>. */
export function isoFromSeconds(seconds: number): string {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString()
}

export function formatMillis(millis: number): string {
  const date = new Date(millis)
  const today = new Date()
  const sameDay = date.toDateString() === today.toDateString()
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : date.toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
}

/** The last path segments of a long folder path, for the header (the full path is the title). */
export function shortPath(path: string, keep = 3): string {
  const parts = path.split(/[\\/]/).filter((part) => part.length > 0)
  if (parts.length <= keep) return path
  return `…/${parts.slice(-keep).join('/')}`
}

export function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n')
  return lines.slice(-count).join('\n')
}

/** The initial shown in an agent's avatar. */
export function initial(name: string): string {
  return (name[0] ?? '?').toUpperCase()
}
