import { TIMELINE_KINDS, type TimelineKind } from '../../shared/timeline'
import { MARKS, MarkIcon } from './marks'
import { KIND_LABELS, laneLabel, type TimelineFilter } from './timeline-model'

/** Toggles one value in a list: the filters' chips. */
export function toggled<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value]
}

/**
 * The filters, which are also the legend: a chip per lane and a chip per kind with its mark.
 * A pressed chip is shown; counts say how many entries each kind has.
 */
export function TimelineFilters({
  lanes,
  counts,
  filter,
  onFilter,
}: {
  readonly lanes: readonly string[]
  readonly counts: Readonly<Partial<Record<TimelineKind, number>>>
  readonly filter: TimelineFilter
  readonly onFilter: (filter: TimelineFilter) => void
}) {
  const kinds = TIMELINE_KINDS.filter((kind) => (counts[kind] ?? 0) > 0)
  return (
    <div className="timeline-filters">
      <div className="timeline-chips" role="group" aria-label="Agents shown">
        <span className="timeline-chips-label muted small">Agents</span>
        {lanes.map((lane) => {
          const shown = !filter.hiddenAgents.includes(lane)
          return (
            <button
              key={lane}
              type="button"
              className={shown ? 'timeline-chip is-on' : 'timeline-chip'}
              aria-pressed={shown}
              onClick={() =>
                onFilter({ ...filter, hiddenAgents: toggled(filter.hiddenAgents, lane) })
              }
            >
              {laneLabel(lane)}
            </button>
          )
        })}
      </div>
      <div className="timeline-chips" role="group" aria-label="Kinds shown">
        <span className="timeline-chips-label muted small">Kinds</span>
        {kinds.map((kind) => {
          const shown = !filter.hiddenKinds.includes(kind)
          return (
            <button
              key={kind}
              type="button"
              className={shown ? 'timeline-chip is-on' : 'timeline-chip'}
              aria-pressed={shown}
              data-kind={kind}
              onClick={() =>
                onFilter({ ...filter, hiddenKinds: toggled(filter.hiddenKinds, kind) })
              }
            >
              <MarkIcon mark={MARKS[kind]} />
              {KIND_LABELS[kind]} <span className="muted">{counts[kind]}</span>
            </button>
          )
        })}
        <span
          className="timeline-legend-failed small"
          title="A failed entry keeps its shape, ringed in red"
        >
          <MarkIcon mark={MARKS.tool} failed /> failed
        </span>
      </div>
    </div>
  )
}
