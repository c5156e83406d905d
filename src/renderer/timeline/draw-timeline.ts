import { TIMELINE_KINDS, type TimelineKind } from '../../shared/timeline'
import { FAILED_HALO, MARKS } from './marks'
import type { Tick, Viewport } from './time-axis'
import { viewEnd, xOf } from './time-axis'
import { arrowsIn, laneRange, type Arrow, type TimelineIndex } from './timeline-model'

/**
 * Draws the lanes on a canvas: lane stripes, the grid of the axis's ticks, the spans of what
 * lasts (turns, tool calls), the arrows from each send to its delivery, then the marks. Only
 * what is in view is visited (binary search per lane), and marks of one kind that fall on the
 * same pixel of a lane are drawn once, so a frame costs about the pixels, not the entries.
 */

/** The most arrows drawn at once: beyond that they are a smear, and the marks say enough. */
const MAX_ARROWS = 2500

export interface Palette {
  readonly color: (variable: string) => string
}

/** The palette as the page's stylesheet has it now (either theme). */
export function readPalette(element: Element): Palette {
  const style = getComputedStyle(element)
  const cache = new Map<string, string>()
  return {
    color(variable) {
      let value = cache.get(variable)
      if (value === undefined) {
        value = style.getPropertyValue(variable).trim() || '#888'
        cache.set(variable, value)
      }
      return value
    },
  }
}

export interface DrawInput {
  readonly index: TimelineIndex
  readonly view: Viewport
  readonly laneHeight: number
  /** The end of the run: a pending message's arrow reaches it. */
  readonly runEnd: number
  readonly ticks: readonly Tick[]
  readonly hovered: number | null
  readonly palette: Palette
}

let paths: Record<TimelineKind, Path2D> | null = null
let halo: Path2D | null = null

function markPaths(): Record<TimelineKind, Path2D> {
  paths ??= Object.fromEntries(
    TIMELINE_KINDS.map((kind) => [kind, new Path2D(MARKS[kind].path)]),
  ) as Record<TimelineKind, Path2D>
  return paths
}

export function drawTimeline(
  context: CanvasRenderingContext2D,
  input: DrawInput,
  pixelRatio: number,
): void {
  const { index, view, laneHeight, palette } = input
  const height = index.lanes.length * laneHeight
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0)
  context.clearRect(0, 0, view.width, height)
  drawStripes(context, input, height)
  drawSpans(context, input)
  drawArrows(context, input)
  drawMarks(context, input, pixelRatio)
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0)
  if (input.hovered !== null) {
    const entry = index.entries[input.hovered]
    const lane = entry === undefined ? -1 : index.lanes.indexOf(entry.agent)
    if (entry !== undefined && lane >= 0) {
      context.strokeStyle = palette.color('--text')
      context.lineWidth = 1.5
      context.beginPath()
      context.arc(xOf(view, entry.at), laneCenter(lane, laneHeight), 9, 0, Math.PI * 2)
      context.stroke()
    }
  }
}

function laneCenter(lane: number, laneHeight: number): number {
  return lane * laneHeight + laneHeight / 2
}

function drawStripes(context: CanvasRenderingContext2D, input: DrawInput, height: number): void {
  const { index, view, laneHeight, palette } = input
  for (let lane = 0; lane < index.lanes.length; lane++) {
    if (lane % 2 === 1) {
      context.fillStyle = palette.color('--surface-2')
      context.fillRect(0, lane * laneHeight, view.width, laneHeight)
    }
  }
  for (const tick of input.ticks) {
    context.fillStyle = palette.color(tick.major ? '--border-strong' : '--border')
    context.fillRect(Math.round(tick.x), 0, tick.major ? 2 : 1, height)
  }
}

function drawSpans(context: CanvasRenderingContext2D, input: DrawInput): void {
  const { index, view, laneHeight, palette } = input
  const span = view.width * view.secondsPerPixel
  const end = viewEnd(view)
  context.globalAlpha = 0.35
  for (let lane = 0; lane < index.lanes.length; lane++) {
    const [first, last] = laneRange(index, lane, view.start - span, end)
    const entries = index.byLane[lane]
    const y = laneCenter(lane, laneHeight)
    let drawnTo = -1
    for (let position = first; position < last; position++) {
      const entry = index.entries[entries?.[position] ?? -1]
      if (entry === undefined || entry.end === null || entry.end <= entry.at) continue
      const left = Math.max(0, xOf(view, entry.at))
      const right = Math.min(view.width, xOf(view, entry.end))
      if (right < 0 || right <= drawnTo) continue
      context.fillStyle = palette.color(entry.failed ? '--error' : MARKS[entry.kind].color)
      context.fillRect(left, y - 3, Math.max(1, right - left), 6)
      drawnTo = right
    }
  }
  context.globalAlpha = 1
}

function drawArrows(context: CanvasRenderingContext2D, input: DrawInput): void {
  const { index, view, laneHeight, palette, runEnd } = input
  const arrows = arrowsIn(index, view.start, viewEnd(view), runEnd, MAX_ARROWS)
  context.lineWidth = 1.25
  for (const arrow of arrows) {
    const color = palette.color(arrow.state === 'rejected' ? '--error' : '--accent')
    drawArrow(context, arrow, view, laneHeight, runEnd, color)
  }
  context.setLineDash([])
  context.globalAlpha = 1
}

function drawArrow(
  context: CanvasRenderingContext2D,
  arrow: Arrow,
  view: Viewport,
  laneHeight: number,
  runEnd: number,
  color: string,
): void {
  const x1 = xOf(view, arrow.from)
  const y1 = laneCenter(arrow.fromLane, laneHeight)
  const x2 = xOf(view, arrow.to ?? runEnd)
  const down = arrow.toLane >= arrow.fromLane ? 1 : -1
  // Ends at the edge of the recipient's mark, not on top of it.
  const y2 = laneCenter(arrow.toLane, laneHeight) - down * 6
  context.strokeStyle = color
  context.fillStyle = color
  context.globalAlpha = arrow.state === 'delivered' ? 0.7 : 0.9
  context.setLineDash(
    arrow.state === 'delivered' ? [] : arrow.state === 'pending' ? [5, 4] : [2, 3],
  )
  context.beginPath()
  context.moveTo(x1, y1)
  context.bezierCurveTo(x1 + (x2 - x1) * 0.5, y1, x1 + (x2 - x1) * 0.5, y2, x2, y2)
  context.stroke()
  context.setLineDash([])
  if (arrow.state === 'rejected') {
    // A cross where it was refused.
    context.beginPath()
    context.moveTo(x2 - 4, y2 - 4)
    context.lineTo(x2 + 4, y2 + 4)
    context.moveTo(x2 + 4, y2 - 4)
    context.lineTo(x2 - 4, y2 + 4)
    context.stroke()
    return
  }
  // An arrowhead, open while the message waits.
  context.beginPath()
  context.moveTo(x2, y2)
  context.lineTo(x2 - 3.5, y2 - down * 6)
  context.lineTo(x2 + 3.5, y2 - down * 6)
  context.closePath()
  if (arrow.state === 'pending') context.stroke()
  else context.fill()
}

function drawMarks(context: CanvasRenderingContext2D, input: DrawInput, ratio: number): void {
  const { index, view, laneHeight, palette } = input
  const shapes = markPaths()
  const ring = (halo ??= new Path2D(FAILED_HALO.path))
  const end = viewEnd(view)
  const margin = 6 * view.secondsPerPixel
  const failed: [number, number, TimelineKind][] = []
  for (let lane = 0; lane < index.lanes.length; lane++) {
    const [first, last] = laneRange(index, lane, view.start - margin, end + margin)
    const entries = index.byLane[lane]
    const y = laneCenter(lane, laneHeight)
    // The last pixel each kind was drawn at in this lane: marks on the same pixel are one.
    const drawnAt = new Map<TimelineKind, number>()
    for (let position = first; position < last; position++) {
      const entry = index.entries[entries?.[position] ?? -1]
      if (entry === undefined) continue
      const x = Math.round(xOf(view, entry.at))
      if (entry.failed) {
        failed.push([x, y, entry.kind])
        continue
      }
      if (drawnAt.get(entry.kind) === x) continue
      drawnAt.set(entry.kind, x)
      context.fillStyle = palette.color(MARKS[entry.kind].color)
      fillAt(context, shapes[entry.kind], x, y, ratio)
    }
  }
  // Failures on top, each whole: they must never hide under another mark.
  const error = palette.color(FAILED_HALO.color)
  for (const [x, y, kind] of failed) {
    context.fillStyle = error
    fillAt(context, ring, x, y, ratio)
    fillAt(context, shapes[kind], x, y, ratio)
  }
}

/** Fills a mark's path centred at (x, y), in CSS pixels. */
function fillAt(
  context: CanvasRenderingContext2D,
  path: Path2D,
  x: number,
  y: number,
  ratio: number,
): void {
  context.setTransform(ratio, 0, 0, ratio, x * ratio, y * ratio)
  context.fill(path, 'evenodd')
}
