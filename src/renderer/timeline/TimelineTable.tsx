import { memo } from 'react'
import type { TimelineEntry } from '../../shared/timeline'
import { formatSeconds } from '../ui/format'
import { MARKS, MarkIcon } from './marks'
import { entriesIn, KIND_LABELS, laneLabel, type TimelineIndex } from './timeline-model'

/** The most rows listed: beyond them, zooming in lists the rest. */
const MAX_ROWS = 200

/**
 * The entries in view as a table: what the canvas draws, for screen readers and the keyboard
 * (each row opens its record), and for whoever prefers reading to looking.
 */
export const TimelineTable = memo(function TimelineTable({
  index,
  from,
  to,
  onOpen,
}: {
  readonly index: TimelineIndex
  readonly from: number
  readonly to: number
  readonly onOpen: (entry: TimelineEntry) => void
}) {
  const { entries, total } = entriesIn(index, from, to, MAX_ROWS)
  return (
    <details className="timeline-table-box" data-testid="timeline-table">
      <summary>
        List of the entries in view ({total}
        {total > entries.length ? `, the first ${entries.length} listed` : ''})
      </summary>
      <table className="timeline-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Lane</th>
            <th scope="col">Kind</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((position) => {
            const entry = index.entries[position]
            if (entry === undefined) return null
            return (
              <tr
                key={entry.id}
                className={entry.failed ? 'is-failed' : undefined}
                data-testid="timeline-row"
              >
                <td className="timeline-table-time">{formatSeconds(entry.at)}</td>
                <td>{laneLabel(entry.agent)}</td>
                <td className="timeline-table-kind">
                  <MarkIcon mark={MARKS[entry.kind]} failed={entry.failed} size={12} />
                  {KIND_LABELS[entry.kind]}
                  {entry.failed ? <strong className="timeline-failed"> (failed)</strong> : null}
                </td>
                <td>
                  <button
                    type="button"
                    className="timeline-table-open"
                    onClick={() => onOpen(entry)}
                  >
                    {entry.summary || '(no summary)'}
                  </button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {total > entries.length ? (
        <p className="muted small">Zoom in to list the other {total - entries.length}.</p>
      ) : null}
    </details>
  )
})
