import { z } from 'zod'
import type { Roster } from '../roster/roster'
import { budgetProblem, NO_BUDGET, type Budget } from '../agents/guards'
import { budgetSchema, usdLimitSchema } from '../../shared/budget'
import {
  addCost,
  addModelUsages,
  costOfModels,
  NO_COST,
  type Cost,
  type ModelUsage,
} from '../../shared/cost'
import { priceFor, type PriceOverrides } from '../../shared/prices'
import type { Usage } from '../../shared/transcript'
import { NO_USAGE, addUsage } from '../../shared/usage'

/** A budget as config.json holds it: files written before dollar budgets have no `usd`. */
const storedBudgetSchema = budgetSchema.extend({ usd: usdLimitSchema.default(null) })
const budgetsSchema = z.object({
  team: storedBudgetSchema.optional(),
  agents: z.record(z.string(), storedBudgetSchema).optional(),
})
export type BudgetsFile = z.infer<typeof budgetsSchema>

/** What the budgets need to know of an agent's spending. */
export interface AgentSpend {
  readonly name: string
  readonly usage: Usage
  readonly usageByModel: ModelUsage
  readonly roundsUsed: number
}

/**
 * Token, round and dollar budgets, per agent and for the whole team, kept in config.json's `budgets`
 * field so that they survive a restart. Defaults come from the host's options.
 */
export class Budgets {
  /** The last parse, kept while the roster's `budgets` value is the same object. */
  private parsed: { source: unknown; file: BudgetsFile } | null = null

  constructor(
    private readonly roster: Roster,
    private readonly defaults: { agent: Budget; team: Budget },
    /** The person's prices (settings), asked at each check so that a change applies at once. */
    private readonly prices: () => PriceOverrides = () => ({}),
  ) {}

  /** Asked before every model call: parsed again only when the roster's budgets changed. */
  private file(): BudgetsFile {
    const source = this.roster.snapshot.budgets
    if (this.parsed?.source !== source || this.parsed === null) {
      const parsed = budgetsSchema.safeParse(source ?? {})
      this.parsed = { source, file: parsed.success ? parsed.data : {} }
    }
    return this.parsed.file
  }

  forAgent(name: string): Budget {
    // An own key only: a name such as "constructor" must not find Object.prototype's.
    const agents = this.file().agents
    return (
      (agents !== undefined && Object.hasOwn(agents, name) ? agents[name] : undefined) ??
      this.defaults.agent
    )
  }

  forTeam(): Budget {
    return this.file().team ?? this.defaults.team
  }

  /**
   * Why `name`'s next model call would go past its budget or the team's, or null. `nextModel`,
   * the model that call would use, is counted as unpriced when it has no price: a dollar budget
   * is not enforceable for it even before it spent anything.
   */
  problem(name: string, agents: readonly AgentSpend[], nextModel?: string): string | null {
    const prices = this.prices()
    const costOfPlanned = (byModel: ModelUsage): Cost => {
      const spent = costOfModels(byModel, prices)
      if (nextModel === undefined || priceFor(nextModel, prices) !== null) return spent
      return addCost(spent, { usd: 0, unpriced: [nextModel] })
    }
    const own = agents.find((agent) => agent.name === name)
    const mine = this.forAgent(name)
    const ownProblem = budgetProblem('agent', mine, {
      usage: own?.usage ?? NO_USAGE,
      rounds: own?.roundsUsed ?? 0,
      cost: mine.usd === null ? NO_COST : costOfPlanned(own?.usageByModel ?? []),
    })
    if (ownProblem !== null) return ownProblem
    const team = this.forTeam()
    if (team.tokens === null && team.rounds === null && team.usd === null) return null
    let usage = NO_USAGE
    let byModel: ModelUsage = []
    let rounds = 0
    for (const agent of agents) {
      usage = addUsage(usage, agent.usage)
      byModel = addModelUsages(byModel, agent.usageByModel)
      rounds += agent.roundsUsed
    }
    return budgetProblem('team', team, {
      usage,
      rounds,
      cost: team.usd === null ? NO_COST : costOfPlanned(byModel),
    })
  }

  /** Sets (or, with nulls, lifts) a budget; `name` null means the team's. */
  set(
    name: string | null,
    budget: Budget,
    update: (change: (draft: Record<string, unknown>) => void) => void,
  ): void {
    update((draft) => {
      const file = budgetsSchema.safeParse(draft.budgets ?? {})
      const next: BudgetsFile = file.success ? file.data : {}
      if (name === null) next.team = budget
      else next.agents = { ...next.agents, [name]: budget }
      draft.budgets = next
    })
  }
}

export { NO_BUDGET }

/**
 * The budget config.json's `budgets` value sets for `name` (null: the team's), read without the
 * runtime (the CLI shows it). A name is looked up as an own key only, never an inherited one.
 */
export function budgetInFile(source: unknown, name: string | null): Budget {
  const parsed = budgetsSchema.safeParse(source ?? {})
  if (!parsed.success) return NO_BUDGET
  if (name === null) return parsed.data.team ?? NO_BUDGET
  const agents = parsed.data.agents ?? {}
  return Object.hasOwn(agents, name) ? (agents[name] ?? NO_BUDGET) : NO_BUDGET
}
