import { USER } from '../../shared/names'
import { isoFromSeconds as isoFromSecondsOrNull } from '../../shared/time'
import { formatCost, formatUsd, type Cost } from '../../shared/cost'
import type { Usage } from '../../shared/transcript'
import { cachedShare, promptTokens, totalTokens } from '../../shared/usage'

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
const yearDateTimeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
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

/** "12.3k tokens", and "12.3k tokens · 81 % cached" once any were read from the prompt cache. */
export function formatTokens(usage: Usage, form: 'full' | 'compact' = 'full'): string {
  const tokens = `${formatCount(totalTokens(usage))} tokens`
  const share = cachedShare(usage)
  // The roster's narrow line has no room for the share: its title and the agent's header say it.
  return share > 0 && form === 'full' ? `${tokens} · ${formatPercent(share)} cached` : tokens
}

/**
 * A cost for the roster's narrow line: "$0.04"; "—" when no price is known (never "$0");
 * "$0.04+" when some models have no price, so the figure is a lower bound.
 */
export function formatCostCompact(cost: Cost): string {
  if (cost.unpriced.length === 0) return formatUsd(cost.usd)
  return cost.usd === 0 ? '—' : `${formatUsd(cost.usd)}+`
}

/** "12.3k · $0.04" for the roster; tokens alone before any were used. */
export function formatSpendCompact(usage: Usage, cost: Cost): string {
  const tokens = totalTokens(usage)
  if (tokens === 0) return '0 tokens'
  return `${formatCount(tokens)} · ${formatCostCompact(cost)}`
}

/** "12.3k tokens · 81 % cached · $0.04" (or "· unknown price"), for headers and panes. */
export function formatSpendFull(usage: Usage, cost: Cost): string {
  return totalTokens(usage) === 0
    ? formatTokens(usage)
    : `${formatTokens(usage)} · ${formatCost(cost)}`
}

/** The cost in words, for a tooltip: the amount, and which models have no price. */
export function describeCost(cost: Cost): string {
  const amount = `Cost: ${formatUsd(cost.usd, true)}`
  if (cost.unpriced.length === 0) return amount
  const missing = `no price is known for ${cost.unpriced.join(', ')} (set one in Settings > Prices)`
  return cost.usd === 0 ? `Cost: unknown, ${missing}` : `${amount} and more: ${missing}`
}

/** The tokens' split and the cost, one per line, for a tooltip. */
export function describeSpend(usage: Usage, cost: Cost): string {
  return `${describeTokens(usage)}\n${describeCost(cost)}`
}

/** 0.814 → "81 %"; a share above zero never shows as "0 %". */
export function formatPercent(share: number): string {
  const percent = Math.round(share * 100)
  return `${share > 0 && percent === 0 ? '<1' : percent} %`
}

/** "$0.12 / $5.00" against a dollar limit, "$0.12" without one; unknown parts said. */
export function formatCostSpend(cost: Cost, limit: number | null): string {
  const spent = formatCost(cost)
  return limit === null ? spent : `${spent} / ${formatUsd(limit)}`
}

/** "1.2k / 50k tokens" against a limit, "1.2k tokens" (or "1 round") without one. */
export function formatSpend(used: number, limit: number | null, noun: 'token' | 'round'): string {
  if (limit !== null) return `${formatCount(used)} / ${formatCount(limit)} ${noun}s`
  return `${formatCount(used)} ${noun}${used === 1 ? '' : 's'}`
}

/** The whole split, for a tooltip: what was read fresh, written to the cache, read from it. */
export function describeTokens(usage: Usage): string {
  const written = usage.cache_creation_input_tokens ?? 0
  const read = usage.cache_read_input_tokens ?? 0
  const cache =
    written + read > 0
      ? ` (of the input, ${formatNumber(read)} read from the cache and ${formatNumber(written)} written to it)`
      : ''
  return `${formatNumber(promptTokens(usage))} input + ${formatNumber(usage.output_tokens)} output tokens${cache}`
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

/**
 * The time alone for today; the day and the time (to the minute) for an earlier day; the year
 * too when it is not this year, so an old record never passes for a recent one.
 */
export function formatMillis(millis: number, now: Date = new Date()): string {
  const date = new Date(millis)
  if (Number.isNaN(date.getTime())) return '—'
  if (isSameDay(date, now)) return timeFormat.format(date)
  return date.getFullYear() === now.getFullYear()
    ? dateTimeFormat.format(date)
    : yearDateTimeFormat.format(date)
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

/** A sender as the person reads it: their own messages are "You", not the mailbox name "user". */
export function senderName(from: string): string {
  return from === USER ? 'You' : from
}

/** The initial shown in an agent's avatar. */
export function initial(name: string): string {
  return (name[0] ?? '?').toUpperCase()
}

/** "812 B", "4.2 KB", "1.3 MB", "2.0 GB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`
}
