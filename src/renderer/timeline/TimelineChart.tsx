import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { TimelineEntry } from '../../shared/timeline'
import { formatSeconds } from '../ui/format'
import { drawTimeline, readPalette } from './draw-timeline'
import { ReplayCursorLine } from './ReplayCursorLine'
import type { ReplayClock } from './replay-clock'
import { panBy, ticks, timeAt, xOf, zoomAt, type Viewport } from './time-axis'
import {
  entryNear,
  KIND_LABELS,
  laneLabel,
  stepEntry,
  type EntryMove,
  type TimelineIndex,
} from './timeline-model'

export const LANE_HEIGHT = 30
/** How far from a mark (CSS pixels) the pointer still hits it. */
const HIT_PIXELS = 7
/** One wheel notch (100 px of delta) zooms by this factor. */
const WHEEL_ZOOM = 1.25

interface ChartProps {
  readonly index: TimelineIndex
  readonly view: Viewport
  readonly onView: (view: Viewport) => void
  readonly runEnd: number
  readonly onOpen: (entry: TimelineEntry) => void
  /** The replay's clock while replaying: its cursor shows on the lanes. */
  readonly clock: ReplayClock | null
}

/**
 * The lanes on a shared time axis: the axis and the lanes' names in the DOM, the entries on a
 * canvas. Wheel zooms about the pointer (Shift+wheel or a sideways swipe pans), dragging pans,
 * a hover or the keyboard shows an entry's summary, and a click or Enter opens its record.
 */
export function TimelineChart({ index, view, onView, runEnd, onOpen, clock }: ChartProps) {
  const plot = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const [hovered, setHovered] = useState<number | null>(null)
  const [themeVersion, setThemeVersion] = useState(0)
  const axisTicks = useMemo(() => ticks(view), [view])
  const height = index.lanes.length * LANE_HEIGHT
  const latest = useRef({ view, onView })
  latest.current = { view, onView }

  useWidth(plot, (width) => {
    if (width > 0 && Math.abs(width - latest.current.view.width) >= 1)
      latest.current.onView({ ...latest.current.view, width })
  })
  useThemeChanges(() => setThemeVersion((value) => value + 1))
  useWheel(plot, (event, x) => {
    const { view: current, onView: change } = latest.current
    if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY))
      change(panBy(current, event.deltaX || event.deltaY))
    else change(zoomAt(current, WHEEL_ZOOM ** (event.deltaY / 100), x))
  })

  useLayoutEffect(() => {
    const element = canvas.current
    const context = element?.getContext('2d')
    if (element === null || element === undefined || context === null || context === undefined)
      return
    const ratio = window.devicePixelRatio || 1
    element.width = Math.max(1, Math.round(view.width * ratio))
    element.height = Math.max(1, Math.round(height * ratio))
    const palette = readPalette(element)
    drawTimeline(
      context,
      { index, view, laneHeight: LANE_HEIGHT, runEnd, ticks: axisTicks, hovered, palette },
      ratio,
    )
  }, [index, view, height, runEnd, axisTicks, hovered, themeVersion])

  const entryAt = (x: number, y: number): number | null =>
    entryNear(
      index,
      Math.floor(y / LANE_HEIGHT),
      timeAt(view, x),
      HIT_PIXELS * view.secondsPerPixel,
    )

  const drag = useRef<{ x: number; moved: boolean } | null>(null)
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>): void => {
    const move = KEY_MOVES[event.key]
    const middle = timeAt(view, view.width / 2)
    if (move !== undefined) setHovered(stepEntry(index, hovered, move, middle))
    else if (event.key === 'Enter' && hovered !== null) {
      const entry = index.entries[hovered]
      if (entry !== undefined) onOpen(entry)
    } else if (event.key === '+' || event.key === '=') onView(zoomAt(view, 0.5, view.width / 2))
    else if (event.key === '-') onView(zoomAt(view, 2, view.width / 2))
    else return
    event.preventDefault()
  }
  const hoveredEntry = hovered === null ? undefined : index.entries[hovered]

  return (
    <div className="timeline-chart">
      <div className="timeline-axis" aria-hidden="true">
        {axisTicks.map((tick) => (
          <span
            key={tick.at}
            className={tick.major ? 'timeline-tick is-major' : 'timeline-tick'}
            style={{ left: tick.x }}
          >
            {tick.label}
          </span>
        ))}
      </div>
      <div className="timeline-body">
        <ul className="timeline-lane-names" aria-label="Lanes">
          {index.lanes.map((lane) => (
            <li
              key={lane}
              className="timeline-lane-name"
              data-testid={`timeline-lane-${lane}`}
              style={{ height: LANE_HEIGHT }}
              title={lane}
            >
              {laneLabel(lane)}
            </li>
          ))}
        </ul>
        <div className="timeline-plot" ref={plot} style={{ height }}>
          <canvas
            ref={canvas}
            className="timeline-canvas"
            data-testid="timeline-canvas"
            style={{ width: view.width, height }}
            tabIndex={0}
            role="img"
            aria-label={`Timeline of ${index.lanes.length} lanes. Arrow keys, Home and End move between entries, Enter opens one, + and − zoom.`}
            onKeyDown={onKeyDown}
            onBlur={() => setHovered(null)}
            onPointerDown={(event) => {
              drag.current = { x: event.clientX, moved: false }
              event.currentTarget.setPointerCapture(event.pointerId)
            }}
            onPointerMove={(event) => {
              const box = event.currentTarget.getBoundingClientRect()
              const started = drag.current
              if (started !== null && (started.moved || Math.abs(event.clientX - started.x) > 3)) {
                onView(panBy(view, started.x - event.clientX))
                drag.current = { x: event.clientX, moved: true }
                return
              }
              setHovered(entryAt(event.clientX - box.left, event.clientY - box.top))
            }}
            onPointerUp={(event) => {
              const started = drag.current
              drag.current = null
              if (started?.moved === true) return
              const box = event.currentTarget.getBoundingClientRect()
              const hit = entryAt(event.clientX - box.left, event.clientY - box.top)
              const entry = hit === null ? undefined : index.entries[hit]
              if (entry !== undefined) onOpen(entry)
            }}
            onPointerLeave={() => {
              if (drag.current === null) setHovered(null)
            }}
          />
          {clock === null ? null : (
            <ReplayCursorLine clock={clock} view={view} onView={onView} runEnd={runEnd} />
          )}
          {hoveredEntry === undefined ? null : (
            <EntryTooltip
              entry={hoveredEntry}
              view={view}
              lane={index.lanes.indexOf(hoveredEntry.agent)}
              height={height}
            />
          )}
        </div>
      </div>
    </div>
  )
}

const KEY_MOVES: Readonly<Record<string, EntryMove>> = {
  ArrowRight: 'next',
  ArrowLeft: 'previous',
  Home: 'first',
  End: 'last',
  ArrowUp: 'up',
  ArrowDown: 'down',
}

function EntryTooltip({
  entry,
  view,
  lane,
  height,
}: {
  readonly entry: TimelineEntry
  readonly view: Viewport
  readonly lane: number
  /** The lanes' height: a tooltip of a low lane opens upwards, not out of the box. */
  readonly height: number
}) {
  const x = xOf(view, entry.at)
  const y = lane * LANE_HEIGHT + LANE_HEIGHT / 2
  const flip = x > view.width - 320
  const above = y > height / 2 && y > 80
  return (
    <div
      className={flip ? 'timeline-tooltip is-flipped' : 'timeline-tooltip'}
      role="status"
      data-testid="timeline-tooltip"
      data-x={Math.round(x)}
      data-y={Math.round(y)}
      style={{
        left: flip ? undefined : x + 12,
        right: flip ? view.width - x + 12 : undefined,
        top: above ? undefined : y + 10,
        bottom: above ? height - y + 10 : undefined,
      }}
    >
      <div className="timeline-tooltip-meta">
        {KIND_LABELS[entry.kind]} · {laneLabel(entry.agent)} · {formatSeconds(entry.at)}
        {entry.end !== null && entry.end > entry.at
          ? ` · ${formatDuration(entry.end - entry.at)}`
          : ''}
        {entry.failed ? <strong className="timeline-failed"> · failed</strong> : null}
      </div>
      <div className="timeline-tooltip-summary">{entry.summary}</div>
      {entry.delivery === undefined ? null : (
        <div className="timeline-tooltip-meta">
          {entry.delivery.state === 'delivered' && entry.delivery.at !== null
            ? `delivered after ${formatDuration(entry.delivery.at - entry.at)}`
            : entry.delivery.state}
        </div>
      )}
    </div>
  )
}

/** "120 ms", "4.2 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
}

/** Calls `onWidth` with the element's width now and on every resize. */
function useWidth(element: React.RefObject<HTMLElement | null>, onWidth: (width: number) => void) {
  const callback = useRef(onWidth)
  callback.current = onWidth
  useEffect(() => {
    const target = element.current
    if (target === null || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => callback.current(target.clientWidth))
    observer.observe(target)
    callback.current(target.clientWidth)
    return () => observer.disconnect()
  }, [element])
}

/** Wheel events on the element, not passive, so that the page does not scroll while zooming. */
function useWheel(
  element: React.RefObject<HTMLElement | null>,
  onWheel: (event: WheelEvent, x: number) => void,
) {
  const callback = useRef(onWheel)
  callback.current = onWheel
  useEffect(() => {
    const target = element.current
    if (target === null) return
    const listener = (event: WheelEvent): void => {
      event.preventDefault()
      callback.current(event, event.clientX - target.getBoundingClientRect().left)
    }
    target.addEventListener('wheel', listener, { passive: false })
    return () => target.removeEventListener('wheel', listener)
  }, [element])
}

/** The canvas takes its colours from the stylesheet: a theme switch draws it again. */
function useThemeChanges(onChange: () => void) {
  const callback = useRef(onChange)
  callback.current = onChange
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return
    const observer = new MutationObserver(() => callback.current())
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    })
    return () => observer.disconnect()
  }, [])
}
