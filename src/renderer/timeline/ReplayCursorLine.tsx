import { useEffect, useSyncExternalStore } from 'react'
import type { ReplayClock } from './replay-clock'
import { xOf, type Viewport } from './time-axis'

/**
 * The replay's moment on the lanes: a line, and what had not happened yet dimmed. While the
 * replay plays, the view follows the moment when it nears an edge.
 */
export function ReplayCursorLine({
  clock,
  view,
  onView,
  runEnd,
}: {
  readonly clock: ReplayClock
  readonly view: Viewport
  readonly runEnd: number
  readonly onView: (view: Viewport) => void
}) {
  const { at, playing } = useSyncExternalStore(clock.subscribe, clock.get)
  useEffect(() => {
    if (!playing) return
    // A page at a time: the lanes are drawn again once per screen, not at every frame; never
    // past the run's end, where there is nothing to see.
    const span = view.width * view.secondsPerPixel
    if (at < view.start) onView({ ...view, start: at - span * 0.05 })
    else if (at > view.start + span * 0.95) {
      const start = Math.min(at - span * 0.05, runEnd - span * 0.96)
      if (start > view.start) onView({ ...view, start })
    }
  }, [at, playing, view, onView, runEnd])
  const x = Math.min(view.width, Math.max(0, xOf(view, at)))
  return (
    <>
      <div
        className="timeline-future"
        aria-hidden="true"
        style={{ left: x, width: Math.max(0, view.width - x) }}
      />
      <div
        className="timeline-cursor"
        aria-hidden="true"
        style={{ transform: `translateX(${x}px)` }}
      />
    </>
  )
}
