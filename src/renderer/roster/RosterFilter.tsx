import type { AgentState } from '../store/state'
import { badgeLook } from '../ui/status'
import { ChoiceSelect } from '../ui/ChoiceSelect'
import { densityController, parseDensityChoice, type RosterDensityChoice } from './roster-density'

/** Whether an agent answers the roster's filter: a word of its name, role or status. */
export function matchesRosterFilter(agent: AgentState, query: string): boolean {
  const wanted = query.trim().toLowerCase()
  if (wanted === '') return true
  const status = badgeLook(agent.status, agent.statusCause).label
  return [agent.name, agent.role, agent.status, status].some((text) =>
    text.toLowerCase().includes(wanted),
  )
}

/**
 * The filter box over the roster (once there are teammates to filter; Escape empties it) and
 * the layout switch.
 */
export function RosterFilter({
  query,
  onChange,
  searchable,
}: {
  readonly query: string
  readonly onChange: (query: string) => void
  readonly searchable: boolean
}) {
  return (
    <div className="roster-filter">
      {searchable ? <FilterBox query={query} onChange={onChange} /> : null}
      <RosterDensitySwitch />
    </div>
  )
}

function FilterBox({
  query,
  onChange,
}: {
  readonly query: string
  readonly onChange: (query: string) => void
}) {
  return (
    <input
      type="search"
      className="roster-filter-input"
      aria-label="Filter the team by name, role or status"
      placeholder="Filter the team"
      title="Shows the agents whose name, role or status has this text (Escape: everyone again)"
      value={query}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || query === '') return
        // Only the filter: the window's Escape (close a dialog) has nothing to do here.
        event.preventDefault()
        event.stopPropagation()
        onChange('')
      }}
    />
  )
}

const densityLabels: Readonly<Record<RosterDensityChoice, string>> = {
  auto: 'Auto',
  normal: 'Normal',
  compact: 'Compact',
}

/** Normal rows (model, spend, branch, actions) or one line per agent; Auto follows the size. */
function RosterDensitySwitch() {
  return (
    <ChoiceSelect
      choice={densityController()}
      labels={densityLabels}
      parse={parseDensityChoice}
      className="roster-density"
      label="Roster layout"
      title="Normal rows, or one line per agent (Auto: compact once the team is large)"
    />
  )
}
