import type { AgentState, Budget, TeamData } from './state'
import { own } from '../../shared/own'
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

/** Whether the agent is paused: it goes on only when the person acts. */
export function isPaused(agent: Pick<AgentState, 'status' | 'statusCause'>): boolean {
  return agent.status === 'waiting' && isPause(agent.statusCause)
}

/** Why the agent is paused, in words, or null when it is not paused (the cause says which). */
export function pauseReason(agent: AgentState): string | null {
  return isPaused(agent) ? (agent.statusReason ?? '') : null
}

/** Paused because a budget ran out: raising it lets the agent go on. */
export function isBudgetPause(agent: AgentState): boolean {
  return agent.status === 'waiting' && agent.statusCause === 'budget'
}
