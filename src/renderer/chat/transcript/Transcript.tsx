import { measureElement, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { TranscriptRecord } from '../../../shared/transcript'
import { useAppStore } from '../../store/context'
import { RowView } from './RowView'
import { ScrollHoldContext } from './scroll-hold'
import { recordRows, withLiveRows, type Row } from './rows'
import { turnSpends } from './turn-spend'
import { useReveal } from './useReveal'
import { useIsFirstView } from '../../first-view/context'
import { own } from '../../../shared/own'
import { UndoFrame, useTranscriptUndo } from '../../undo/TranscriptUndo'

const noRecords: readonly TranscriptRecord[] = []
/** How close to the bottom (px) still counts as "at the latest": the view keeps following. */
const FOLLOW_THRESHOLD = 64
/** The rows of the first view (first-view/): more than the tallest window shows. */
const FIRST_VIEW_ROWS = 16

function estimateSize(row: Row | undefined): number {
  switch (row?.kind) {
    case 'tool':
      return 46
    case 'status':
    case 'compaction':
    case 'thinking':
    case 'undo':
      return 34
    case 'inbox':
      return 92
    default:
      return 88
  }
}

/**
 * A row's height from its ResizeObserver entry, which comes after the frame's layout. As a row
 * mounts (no entry yet) its cached size or estimate stands in: reading its height there forced
 * a layout per row, and a re-render per changed size, before the first paint.
 */
function measureRow(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
): number {
  // With an entry the library's own measure reads it; without a ResizeObserver (jsdom) nothing
  // would measure the row later, so it reads the row now.
  if (entry !== undefined || typeof ResizeObserver === 'undefined')
    return measureElement(element, entry, instance)
  const index = instance.indexFromElement(element)
  return (
    instance.itemSizeCache.get(instance.options.getItemKey(index)) ??
    instance.options.estimateSize(index)
  )
}

/**
 * How far (px) the view is from the last row, from the virtualizer's own sizes: its isAtEnd
 * reads the scroller's scrollHeight, a forced layout in every render (each streamed delta, and
 * each row measured at the first paint).
 */
function distanceFromEnd(virtualizer: Virtualizer<HTMLDivElement, Element>): number {
  const viewport = virtualizer.scrollRect?.height ?? 0
  return Math.max(virtualizer.getTotalSize() - viewport - (virtualizer.scrollOffset ?? 0), 0)
}

/**
 * An agent's transcript, virtualized: only the rows on screen exist in the DOM, so a
 * 10,000-entry transcript opens and scrolls smoothly. The latest page loads first, earlier
 * pages as the person scrolls up; it follows the stream while it is at the bottom.
 */
export function Transcript({
  name,
  emptyHint,
}: {
  readonly name: string
  readonly emptyHint: string
}) {
  const transcript = useAppStore((state) => own(state.transcripts, name))
  const live = useAppStore((state) => own(state.live, name))
  const loadTranscript = useAppStore((state) => state.loadTranscript)
  const loadOlder = useAppStore((state) => state.loadOlderTranscript)
  const status = transcript?.status

  useEffect(() => {
    if (status === undefined) void loadTranscript(name)
  }, [name, status, loadTranscript])

  const records = transcript?.records ?? noRecords
  const recorded = useMemo(() => recordRows(records), [records])
  const spends = useMemo(() => turnSpends(records), [records])
  const hasOlder = (records[0]?.seq ?? 1) > 1
  const rows = useMemo(() => withLiveRows(recorded, live), [recorded, live])
  const undo = useTranscriptUndo(name, records, recorded)

  // While a row the person clicked changes height, the rows keep their place from the top: kept
  // to the end (to follow the stream), a card opening near the top would shoot up out of view.
  const [holding, setHolding] = useState(false)
  const hold = useCallback(() => setHolding(true), [])
  useEffect(() => {
    if (!holding) return
    // Two frames: the new height is laid out and measured (ResizeObserver) within the first.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setHolding(false))
    })
    return () => cancelAnimationFrame(frame)
  }, [holding])

  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateSize(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    measureElement: measureRow,
    overscan: 6,
    anchorTo: holding ? 'start' : 'end',
    followOnAppend: true,
    scrollEndThreshold: FOLLOW_THRESHOLD,
  })
  const items = virtualizer.getVirtualItems()
  // A search hit opened here: its row is scrolled to and marked (in this list layer, so the
  // rows themselves know nothing of it).
  const revealed = useReveal(name, records, rows, status === 'ready', virtualizer)

  // The first time the tail is on screen, start at the bottom: the latest is what matters.
  const startedAtEnd = useRef(false)
  useLayoutEffect(() => {
    if (startedAtEnd.current || status !== 'ready' || rows.length === 0) return
    startedAtEnd.current = true
    virtualizer.scrollToEnd()
  }, [status, rows.length, virtualizer])

  // Earlier pages load once the person has scrolled up to the first loaded row. The rows
  // keep their keys, so the virtualizer holds what is on screen in place as the page lands.
  const firstIndex = items[0]?.index
  const firstSeq = records[0]?.seq
  const direction = virtualizer.scrollDirection
  const scrolledUp = useRef(false)
  useEffect(() => {
    if (direction === 'backward') scrolledUp.current = true
    if (hasOlder && firstIndex === 0 && scrolledUp.current) void loadOlder(name)
  }, [direction, hasOlder, firstIndex, firstSeq, loadOlder, name])

  const atEnd = rows.length === 0 || distanceFromEnd(virtualizer) <= FOLLOW_THRESHOLD
  const firstView = useIsFirstView()

  // Drawn on the host there is no layout to virtualize by: the last rows, held to the bottom
  // by the stylesheet, as the page will show them once it has scrolled to the end.
  if (firstView && status === 'ready' && rows.length > 0)
    return (
      <div className="transcript">
        <div
          className="transcript-scroll transcript-first-view"
          data-testid="transcript"
          // Not the app's rows (no virtualizer here): a click in them has no counterpart there.
          data-first-view-only=""
        >
          {rows.slice(-FIRST_VIEW_ROWS).map((row) => (
            <div key={row.key} className="transcript-row">
              <RowView row={row} agent={name} spend={own(spends, row.key)} />
            </div>
          ))}
        </div>
      </div>
    )

  return (
    <div className="transcript">
      <div ref={scroller} className="transcript-scroll" data-testid="transcript" tabIndex={0}>
        {status === 'failed' ? (
          <div className="empty-state">
            <p className="inline-error" role="alert">
              Could not read the transcript: {transcript?.error}
            </p>
            <button type="button" className="button" onClick={() => void loadTranscript(name)}>
              Try again
            </button>
          </div>
        ) : rows.length === 0 ? (
          <div className="empty-state">
            <p className="muted">{status === 'loading' ? 'Loading the transcript…' : emptyHint}</p>
          </div>
        ) : (
          <div className="transcript-sizer" style={{ height: virtualizer.getTotalSize() }}>
            <div
              className="transcript-window"
              style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}
            >
              {items.map((item) => {
                const row = rows[item.index]
                if (row === undefined) return null
                return (
                  <div
                    key={item.key}
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    className={
                      item.key === revealed ? 'transcript-row is-revealed' : 'transcript-row'
                    }
                    data-revealed={item.key === revealed ? 'true' : undefined}
                  >
                    <ScrollHoldContext value={hold}>
                      <UndoFrame
                        name={name}
                        anchor={own(undo.anchors, row.key)}
                        undone={own(undo.undone, row.key)}
                      >
                        <RowView row={row} agent={name} spend={own(spends, row.key)} />
                      </UndoFrame>
                    </ScrollHoldContext>
                  </div>
                )
              })}
            </div>
          </div>
        )}
      </div>
      {transcript?.loadingOlder ? (
        <div className="older-marker">Loading earlier entries…</div>
      ) : null}
      {transcript?.error && status === 'ready' ? (
        <p className="inline-error transcript-error" role="alert">
          Could not read earlier entries: {transcript.error}
        </p>
      ) : null}
      {!atEnd ? (
        <button
          type="button"
          className="button jump-latest"
          onClick={() => virtualizer.scrollToEnd()}
        >
          ↓ Jump to latest
        </button>
      ) : null}
    </div>
  )
}
