import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import './timeline.css'
import type { Timeline, TimelineKind } from '../../shared/timeline'
import { useAppStore } from '../store/context'
import { ReplayClock } from './replay-clock'
import { ReplayCursor } from './replay-model'
import { ReplayPanel } from './ReplayPanel'
import { describeSpan, fitSpan, viewEnd, zoomAt, type Viewport } from './time-axis'
import { TimelineChart } from './TimelineChart'
import { TimelineFilters } from './TimelineFilters'
import { TimelineTable } from './TimelineTable'
import { buildIndex, laneOrder, NO_FILTER, type TimelineFilter } from './timeline-model'

/** How long after the last record-bearing event the timeline is read again (ms): one read per burst. */
const REFRESH_PAUSE_MS = 700

/** The Timeline view: every agent's lane on one time axis, its filters, its list, and replay. */
export function TimelineView() {
  const workspace = useAppStore((state) => state.workspace)
  const data = useAppStore((state) => state.timelineData)
  const version = useAppStore((state) => state.timelineVersion)
  const loadTimeline = useAppStore((state) => state.loadTimeline)
  useTimelineRefresh(version, loadTimeline)
  const timeline = data.workspace === workspace ? data.timeline : null
  if (timeline === null)
    return (
      <section className="timeline" aria-label="Timeline" data-testid="timeline">
        {data.status === 'failed' ? (
          <p className="inline-error" role="alert">
            The timeline could not be read: {data.error}
          </p>
        ) : (
          <p className="muted">Reading the team’s records…</p>
        )}
      </section>
    )
  return (
    <TimelineContent
      timeline={timeline}
      updating={data.status === 'loading'}
      complete={data.complete}
      error={data.status === 'failed' ? data.error : null}
    />
  )
}

/** Reads the timeline when the view opens, and again (at most once a pause) while records come in. */
function useTimelineRefresh(version: number, load: () => Promise<void>): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      void load()
      return
    }
    // Not reset by the next event: a team that never stops writing is still read again.
    timer.current ??= setTimeout(() => {
      timer.current = null
      void load()
    }, REFRESH_PAUSE_MS)
  }, [version, load])
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current)
    },
    [],
  )
}

function TimelineContent({
  timeline,
  updating,
  complete,
  error,
}: {
  readonly timeline: Timeline
  readonly updating: boolean
  /** False while older pages are still being read. */
  readonly complete: boolean
  readonly error: string | null
}) {
  const openEntry = useAppStore((state) => state.openTimelineEntry)
  const showAwayDigest = useAppStore((state) => state.showAwayDigest)
  const { entries } = timeline
  const span = useMemo(
    () =>
      timeline.span ?? {
        start: entries[0]?.at ?? 0,
        end: entries[entries.length - 1]?.at ?? 0,
      },
    [timeline.span, entries],
  )
  const [filter, setFilter] = useState<TimelineFilter>(NO_FILTER)
  const allLanes = useMemo(
    () => laneOrder([...timeline.agents, ...new Set(entries.map((entry) => entry.agent))]),
    [timeline.agents, entries],
  )
  const counts = useMemo(() => countKinds(entries), [entries])
  const index = useMemo(
    () => buildIndex(entries, allLanes, filter, span.end),
    [entries, allLanes, filter, span.end],
  )

  const [view, setView] = useState<Viewport>(() => fitSpan(span, 1000))
  const touched = useRef(false)
  const onView = useCallback(
    (next: Viewport) => {
      setView((current) => {
        // A resize before the person zoomed or panned fits the run to the new width.
        if (next.width !== current.width && !touched.current) return fitSpan(span, next.width)
        if (next.width === current.width) touched.current = true
        return next
      })
    },
    [span],
  )

  const [clock] = useState(() => new ReplayClock(span))
  useEffect(() => () => clock.dispose(), [clock])
  useEffect(() => clock.setSpan(span), [clock, span])
  const [replaying, setReplaying] = useState(false)
  const cursor = useMemo(() => (replaying ? new ReplayCursor(entries) : null), [replaying, entries])

  const zoom = (factor: number) => onView(zoomAt(view, factor, view.width / 2))
  const secondsAcross = view.width * view.secondsPerPixel
  return (
    <section className="timeline" aria-label="Timeline" data-testid="timeline">
      <div className="timeline-toolbar">
        <div className="timeline-zoom" role="group" aria-label="Zoom">
          <button
            type="button"
            className="button button-small"
            onClick={() => zoom(2)}
            title="Zoom out (−)"
          >
            −
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => zoom(0.5)}
            title="Zoom in (+)"
          >
            +
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              touched.current = false
              setView(fitSpan(span, view.width))
            }}
            title="The whole run"
          >
            Fit
          </button>
          <span className="muted small" data-testid="timeline-scale">
            {describeSpan(secondsAcross)} across
          </span>
        </div>
        <span className="muted small timeline-count" data-testid="timeline-count">
          {index.shown.length} of {entries.length} entries
          {complete ? '' : ' · reading older entries…'}
          {complete && updating ? ' · updating…' : ''}
        </span>
        <div className="timeline-actions">
          {replaying ? null : (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => {
                clock.seek(Math.max(span.start, view.start))
                setReplaying(true)
              }}
              title="Play the run again, with the roster, board and activity as they were"
            >
              Replay
            </button>
          )}
          <button
            type="button"
            className="button button-small"
            onClick={() => void showAwayDigest()}
          >
            While you were away
          </button>
        </div>
      </div>
      {error === null ? null : (
        <p className="inline-error" role="alert">
          The timeline could not be read again: {error}
        </p>
      )}
      {timeline.problems.length === 0 ? null : (
        <details className="timeline-problems">
          <summary>{timeline.problems.length} record(s) could not be read</summary>
          <ul>
            {timeline.problems.slice(0, 50).map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </details>
      )}
      <TimelineFilters lanes={allLanes} counts={counts} filter={filter} onFilter={setFilter} />
      {entries.length === 0 ? (
        <p className="muted">
          Nothing has happened yet. Messages, turns, tool calls and tasks appear here.
        </p>
      ) : (
        <TimelineChart
          index={index}
          view={view}
          onView={onView}
          runEnd={span.end}
          onOpen={openEntry}
          clock={replaying ? clock : null}
        />
      )}
      {replaying && cursor !== null ? (
        <ReplayPanel
          clock={clock}
          cursor={cursor}
          span={span}
          lanes={allLanes}
          onExit={() => {
            clock.pause()
            setReplaying(false)
          }}
        />
      ) : null}
      <TimelineTable index={index} from={view.start} to={viewEnd(view)} onOpen={openEntry} />
    </section>
  )
}

function countKinds(entries: Timeline['entries']): Partial<Record<TimelineKind, number>> {
  const counts: Partial<Record<TimelineKind, number>> = {}
  for (const entry of entries) counts[entry.kind] = (counts[entry.kind] ?? 0) + 1
  return counts
}
