/**
 * Durations as people type them, one grammar for every place that takes one (`--every`,
 * `--since`, the reactions' delays, the schedule form): whole numbers with units, largest first,
 * `1w`, `2d`, `1h30m`, `90s`. A bare number has no unit and is refused, as is zero.
 */

const UNITS = [
  ['w', 7 * 86_400],
  ['d', 86_400],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
] as const

const DURATION_PATTERN =
  /^(?:(\d{1,6})w)?(?:(\d{1,7})d)?(?:(\d{1,8})h)?(?:(\d{1,9})m)?(?:(\d{1,10})s)?$/

/** The words a message about a bad duration uses. */
export const DURATION_RULE = 'a duration such as 90s, 10m, 2h, 1h30m, 1d or 1w'

/** Seconds, or null when `text` is not a duration (or is zero). */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim()
  const match = DURATION_PATTERN.exec(trimmed)
  if (match === null || trimmed === '') return null
  let total = 0
  UNITS.forEach(([, size], index) => {
    total += Number(match[index + 1] ?? 0) * size
  })
  return total > 0 && Number.isSafeInteger(total) ? total : null
}

/** Seconds in the shortest words `parseDuration` reads back: 5400 is "1h30m", 0 is "0s". */
export function formatDuration(seconds: number): string {
  let rest = Math.floor(seconds)
  const parts: string[] = []
  for (const [unit, size] of UNITS.slice(1)) {
    const count = Math.floor(rest / size)
    rest -= count * size
    if (count > 0) parts.push(`${count}${unit}`)
  }
  return parts.join('') || '0s'
}
