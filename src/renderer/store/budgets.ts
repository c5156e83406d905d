import type { AgentState, Budget, TeamData } from './state'
import { own } from '../../shared/own'

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

/** Why the agent is paused ("paused: …" is how the runtime says so), or null. */
export function pauseReason(agent: AgentState): string | null {
  if (agent.status !== 'waiting' || agent.statusReason === null) return null
  const match = /^paused:\s*(.*)$/s.exec(agent.statusReason)
  return match === null ? null : (match[1] ?? '')
}

/** Paused because a budget ran out: raising it lets the agent go on. */
export function isBudgetPause(agent: AgentState): boolean {
  return /\bbudget\b/.test(pauseReason(agent) ?? '')
}
