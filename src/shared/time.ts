/**
 * Timestamps come from files anyone can write: `1e300` or `-1e300` is a valid JSON number, and
 * `new Date(1e303).toISOString()` throws a RangeError. Every place that prints one goes through
 * here, and an out-of-range time is shown as the number it is, never a crash.
 */

/** The ISO 8601 form of `seconds` since the epoch, or null when no date has that time. */
export function isoFromSeconds(seconds: number): string | null {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** `2026-12-02 18:35:10Z`, or `(timestamp 1e+300)` for a time no date has. */
export function formatSecondsUtc(seconds: number): string {
  const iso = isoFromSeconds(seconds)
  if (iso === null) return `(timestamp ${String(seconds)})`
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
}
