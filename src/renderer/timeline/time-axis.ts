/**
 * The Timeline view's time axis, pure: a viewport (the time at its left edge and how many
 * seconds a pixel holds), zooming about a point, panning, fitting a span, and the ticks with
 * their labels for the zoom level, from tenths of a second to weeks.
 */

/** The closest zoom: about five seconds across a thousand pixels. */
export const MIN_SECONDS_PER_PIXEL = 0.005
/** The widest: about two weeks across a thousand pixels. */
export const MAX_SECONDS_PER_PIXEL = 1200

export interface Viewport {
  /** The time at the left edge, seconds since the epoch. */
  readonly start: number
  readonly secondsPerPixel: number
  /** The drawing's width in CSS pixels. */
  readonly width: number
}

export function clampScale(secondsPerPixel: number): number {
  if (!Number.isFinite(secondsPerPixel)) return MAX_SECONDS_PER_PIXEL
  return Math.min(MAX_SECONDS_PER_PIXEL, Math.max(MIN_SECONDS_PER_PIXEL, secondsPerPixel))
}

export function viewEnd(view: Viewport): number {
  return view.start + view.width * view.secondsPerPixel
}

export function xOf(view: Viewport, at: number): number {
  return (at - view.start) / view.secondsPerPixel
}

export function timeAt(view: Viewport, x: number): number {
  return view.start + x * view.secondsPerPixel
}

/** The whole span in view, with a margin of 4 % each side (a span of an instant: 4 s). */
export function fitSpan(span: { start: number; end: number }, width: number): Viewport {
  const length = Math.max(span.end - span.start, 4)
  const usable = Math.max(width, 1)
  const secondsPerPixel = clampScale((length * 1.08) / usable)
  const middle = (span.start + span.end) / 2
  return { start: middle - (usable * secondsPerPixel) / 2, secondsPerPixel, width }
}

/** Zooms by `factor` (> 1 zooms out) keeping the time under `x` where it is. */
export function zoomAt(view: Viewport, factor: number, x: number): Viewport {
  const anchor = timeAt(view, x)
  const secondsPerPixel = clampScale(view.secondsPerPixel * factor)
  return { ...view, secondsPerPixel, start: anchor - x * secondsPerPixel }
}

/** Moves the view by `pixels` (positive: later times come into view). */
export function panBy(view: Viewport, pixels: number): Viewport {
  return { ...view, start: view.start + pixels * view.secondsPerPixel }
}

/** Keeps `at` in view, moving the view as little as possible (the replay's cursor). */
export function keepInView(view: Viewport, at: number, margin = 0.1): Viewport {
  const span = view.width * view.secondsPerPixel
  const left = view.start + span * margin
  const right = view.start + span * (1 - margin)
  if (at >= left && at <= right) return view
  return { ...view, start: at - span * (at < left ? margin : 1 - margin) }
}

/** Tick steps, in seconds: each a step a person counts in. */
const STEPS = [
  0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600,
  43_200, 86_400, 172_800, 604_800, 1_209_600,
]
const DAY = 86_400

/** The smallest step whose ticks are at least `minSpacing` pixels apart. */
export function tickStep(secondsPerPixel: number, minSpacing = 90): number {
  const wanted = secondsPerPixel * minSpacing
  return STEPS.find((step) => step >= wanted) ?? STEPS[STEPS.length - 1] ?? DAY
}

export interface Tick {
  readonly at: number
  readonly x: number
  readonly label: string
  /** The first tick of a day: its label says the date, and its line is stronger. */
  readonly major: boolean
}

/**
 * The ticks across the view. Steps align to the local clock (`offsetSeconds`: seconds east of
 * UTC at that time, the person's zone by default), so that labels fall on whole minutes, hours
 * and midnights there.
 */
export function ticks(
  view: Viewport,
  minSpacing = 90,
  offsetSeconds: (at: number) => number = localOffset,
): Tick[] {
  const step = tickStep(view.secondsPerPixel, minSpacing)
  const end = viewEnd(view)
  const offset = offsetSeconds(view.start)
  // Weeks start on a Monday (the epoch was a Thursday: 4 days before a Monday's midnight).
  const base = step >= 7 * DAY ? -4 * DAY : 0
  let local = Math.floor((view.start + offset - base) / step) * step + base
  const result: Tick[] = []
  for (let count = 0; count < 1000 && local - offset <= end; count++, local += step) {
    const at = local - offset
    if (at < view.start) continue
    const rounded = Math.round(local * 10) / 10
    const major = step >= DAY || rounded % DAY === 0
    result.push({ at, x: xOf(view, at), label: tickLabel(rounded, step, major), major })
  }
  return result
}

/** Seconds east of UTC at `at` in the person's zone. */
export function localOffset(at: number): number {
  return -new Date(at * 1000).getTimezoneOffset() * 60
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const two = (value: number) => String(value).padStart(2, '0')

/** A label for a local time (seconds, already shifted to the zone) at a step's precision. */
export function tickLabel(local: number, step: number, major: boolean): string {
  const date = new Date(Math.round(local * 1000))
  const day = `${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCDate()}`
  if (step >= DAY || (major && step >= 60)) return day
  const clock = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`
  if (step >= 60) return clock
  const seconds = `${clock}:${two(date.getUTCSeconds())}`
  if (step >= 1) return seconds
  return `${seconds}.${Math.floor(date.getUTCMilliseconds() / 100)}`
}

/** How much of the run one screen shows, in words: "5 s", "2 min", "3 h", "4 d". */
export function describeSpan(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`
  return `${Math.round(seconds / DAY)} d`
}
