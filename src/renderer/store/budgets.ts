import type { AgentState, Budget, TeamData } from './state'
import { own } from '../../shared/own'
import { PAUSED_REASON_PREFIX } from '../../shared/desktop'
import { isPause } from '../../shared/roster'

/**
 * A budget was set (name null: the team's); the runtime lets agents it paused go on. A dollar
 * limit not given stays as it was, as the runtime keeps it.
 */
export function budgetChanged(
  state: TeamData,
  name: string | null,
  change: Omit<Budget, 'usd'> & { readonly usd?: number | null },
): TeamData {
  const merged = (current: Budget): Budget => ({
    tokens: change.tokens,
    rounds: change.rounds,
    usd: change.usd === undefined ? current.usd : change.usd,
  })
  if (name === null) return { ...state, teamBudget: merged(state.teamBudget) }
  const agent = own(state.agents, name)
  if (agent === undefined) return state
  return {
    ...state,
    agents: { ...state.agents, [name]: { ...agent, budget: merged(agent.budget) } },
  }
}

/** Why the agent is paused, in words, or null when it is not paused (the cause says which). */
export function pauseReason(agent: AgentState): string | null {
  if (agent.status !== 'waiting' || !isPause(agent.statusCause)) return null
  const reason = agent.statusReason ?? ''
  return reason.startsWith(PAUSED_REASON_PREFIX)
    ? reason.slice(PAUSED_REASON_PREFIX.length)
    : reason
}

/** Paused because a budget ran out: raising it lets the agent go on. */
export function isBudgetPause(agent: AgentState): boolean {
  return agent.status === 'waiting' && agent.statusCause === 'budget'
}
