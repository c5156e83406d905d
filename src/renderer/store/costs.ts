import { addModelUsages, costOfModels, type Cost, type ModelUsage } from '../../shared/cost'
import type { PriceOverrides } from '../../shared/prices'
import { own } from '../../shared/own'
import type { TeamData } from './state'

const NO_PRICES: PriceOverrides = {}

/** The person's prices (Claude's list prices cover the rest); none before settings are read. */
export function pricesOf(state: TeamData): PriceOverrides {
  return state.settings?.prices ?? NO_PRICES
}

/** Every agent's usage per model, added: the team's, for its cost. */
export function teamUsageByModel(state: Pick<TeamData, 'agents' | 'order'>): ModelUsage {
  let total: ModelUsage = []
  for (const name of state.order) {
    const agent = own(state.agents, name)
    if (agent !== undefined) total = addModelUsages(total, agent.usageByModel)
  }
  return total
}

/** What the whole team has cost so far, at the current prices. */
export function teamCost(state: TeamData): Cost {
  return costOfModels(teamUsageByModel(state), pricesOf(state))
}
