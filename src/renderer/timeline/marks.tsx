import type { TimelineKind } from '../../shared/timeline'

/**
 * How each kind is drawn: a shape and a colour, so that no kind is told from another by colour
 * alone. Each shape is an SVG path in a box from -5 to 5, drawn by the canvas (Path2D) and by the
 * legend (<svg>) from the same text.
 */
export interface Mark {
  readonly path: string
  /** A CSS variable of the palette (both themes define it). */
  readonly color: string
}

const CIRCLE = 'M 0 -4.5 A 4.5 4.5 0 1 1 0 4.5 A 4.5 4.5 0 1 1 0 -4.5 Z'
const RING =
  'M 0 -4.5 A 4.5 4.5 0 1 1 0 4.5 A 4.5 4.5 0 1 1 0 -4.5 Z M 0 -2 A 2 2 0 1 0 0 2 A 2 2 0 1 0 0 -2 Z'
const SQUARE = 'M -4 -4 H 4 V 4 H -4 Z'
const DIAMOND = 'M 0 -5 L 5 0 L 0 5 L -5 0 Z'
const TRIANGLE = 'M 0 -5 L 5 4 L -5 4 Z'
const TRIANGLE_DOWN = 'M -5 -4 L 5 -4 L 0 5 Z'
const PLUS = 'M -1.6 -5 H 1.6 V -1.6 H 5 V 1.6 H 1.6 V 5 H -1.6 V 1.6 H -5 V -1.6 H -1.6 Z'
const HEXAGON = 'M -2.5 -4.5 H 2.5 L 5 0 L 2.5 4.5 H -2.5 L -5 0 Z'
const BAR = 'M -1.8 -5 H 1.8 V 5 H -1.8 Z'
const PAUSE = 'M -4.5 -4.5 H -1 V 4.5 H -4.5 Z M 1 -4.5 H 4.5 V 4.5 H 1 Z'
const CHEVRON = 'M -4 -5 L 1 0 L -4 5 H 0 L 5 0 L 0 -5 Z'
const STAR =
  'M 0 -5 L 1.5 -1.6 L 5 -1.5 L 2.3 0.8 L 3.1 4.5 L 0 2.5 L -3.1 4.5 L -2.3 0.8 L -5 -1.5 L -1.5 -1.6 Z'
const HOURGLASS = 'M -4.5 -5 H 4.5 L 0 0 L 4.5 5 H -4.5 L 0 0 Z'

export const MARKS: Readonly<Record<TimelineKind, Mark>> = {
  message: { path: CIRCLE, color: '--accent' },
  status: { path: DIAMOND, color: '--idle' },
  turn: { path: BAR, color: '--working' },
  tool: { path: SQUARE, color: '--tool-text' },
  task: { path: TRIANGLE, color: '--ok' },
  approval: { path: TRIANGLE_DOWN, color: '--waiting' },
  budget: { path: PAUSE, color: '--stalled' },
  compaction: { path: RING, color: '--text-muted' },
  commit: { path: HEXAGON, color: '--ok-text' },
  merge: { path: CHEVRON, color: '--info-text' },
  check: { path: PLUS, color: '--warning-text' },
  reaction: { path: STAR, color: '--waiting' },
  schedule: { path: HOURGLASS, color: '--info-text' },
}

/**
 * A failed entry keeps its kind's shape, in the error colour, inside this ring: the ring tells
 * it apart without colour.
 */
export const FAILED_HALO: Mark = {
  path: 'M 0 -8 A 8 8 0 1 1 0 8 A 8 8 0 1 1 0 -8 Z M 0 -6.4 A 6.4 6.4 0 1 0 0 6.4 A 6.4 6.4 0 1 0 0 -6.4 Z',
  color: '--error',
}

/** The legend's small picture of a mark. */
export function MarkIcon({
  mark,
  failed = false,
  size = 14,
}: {
  readonly mark: Mark
  readonly failed?: boolean
  readonly size?: number
}) {
  return (
    <svg
      className="timeline-mark-icon"
      width={size}
      height={size}
      viewBox="-8.5 -8.5 17 17"
      aria-hidden="true"
    >
      {failed ? (
        <path d={FAILED_HALO.path} fill={`var(${FAILED_HALO.color})`} fillRule="evenodd" />
      ) : null}
      <path
        d={mark.path}
        fill={`var(${failed ? FAILED_HALO.color : mark.color})`}
        fillRule="evenodd"
      />
    </svg>
  )
}
