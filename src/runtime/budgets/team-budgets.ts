import type { PriceOverrides } from '../../shared/prices'
import type { TeamAgent } from '../agents/team-agent'
import { NO_BUDGET, type Budget } from '../agents/guards'
import { Budgets } from './budgets'
import type { Roster } from '../roster/roster'

/** The host's budgets and prices, and the agents a change of either lets go on. */
export class TeamBudgets {
  private readonly budgets: Budgets
  private prices: PriceOverrides

  constructor(
    roster: Roster,
    /** Budgets that apply where config.json sets none. */
    defaults: { agent?: Budget; team?: Budget } | undefined,
    prices: PriceOverrides | undefined,
    private readonly agents: () => Iterable<TeamAgent>,
  ) {
    this.prices = prices ?? {}
    this.budgets = new Budgets(
      roster,
      { agent: defaults?.agent ?? NO_BUDGET, team: defaults?.team ?? NO_BUDGET },
      () => this.prices,
    )
  }

  /** Sets a budget (`name` null: the team's) and lets agents paused by budgets go on. */
  set(
    name: string | null,
    budget: Budget,
    update: (change: (draft: Record<string, unknown>) => void) => void,
  ): void {
    this.budgets.set(name, budget, update)
    this.resumePaused()
  }

  /** The prices every cost is counted at now (the settings' over Claude's list prices). */
  currentPrices(): PriceOverrides {
    return this.prices
  }

  /** New prices: asked at each check, so they apply from the next model call. */
  setPrices(prices: PriceOverrides): void {
    this.prices = prices
  }

  /** Lets every agent a budget paused go on; one still over its budget pauses again. */
  resumePaused(): void {
    for (const agent of this.agents()) {
      const end = agent.lastActivation
      if (end.kind === 'paused' && end.cause === 'budget') agent.resume()
    }
  }

  /** The budget of `name` (null: the team's). */
  of(name: string | null): Budget {
    return name === null ? this.budgets.forTeam() : this.budgets.forAgent(name)
  }

  /** Why `name`'s next model call (to `nextModel`) would go past a budget, or null. */
  problem(name: string, nextModel: string): string | null {
    return this.budgets.problem(name, [...this.agents()], nextModel)
  }
}
