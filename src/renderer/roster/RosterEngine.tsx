import { DEFAULT_ENGINE, ENGINE_LABELS } from '../../shared/engine'
import type { AgentState } from '../store/state'

/** The name of the engine that runs the agent's turns, or null for the built-in one. */
export function otherEngine(agent: AgentState): string | null {
  return agent.engine === DEFAULT_ENGINE ? null : ENGINE_LABELS[agent.engine]
}

/** A small badge when another engine than the built-in one runs the agent's turns. */
export function RosterEngine({ agent }: { readonly agent: AgentState }) {
  const label = otherEngine(agent)
  if (label === null) return null
  return (
    <span
      className="roster-engine"
      data-testid={`engine-${agent.name}`}
      title={`Its turns are run by ${label}`}
    >
      {label}
    </span>
  )
}
