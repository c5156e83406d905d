import { z } from 'zod'
import type { Roster } from './roster/roster'
import { NO_BUDGET, type Budget } from './agents/guards'

const budgetSchema = z.object({
  tokens: z.number().int().min(1).nullable(),
  rounds: z.number().int().min(1).nullable(),
})
const budgetsSchema = z.object({
  team: budgetSchema.optional(),
  agents: z.record(z.string(), budgetSchema).optional(),
})
export type BudgetsFile = z.infer<typeof budgetsSchema>

/**
 * Token and round budgets, per agent and for the whole team, kept in config.json's `budgets`
 * field so that they survive a restart. Defaults come from the host's options.
 */
export class Budgets {
  constructor(
    private readonly roster: Roster,
    private readonly defaults: { agent: Budget; team: Budget },
  ) {}

  private file(): BudgetsFile {
    const parsed = budgetsSchema.safeParse(this.roster.snapshot.budgets ?? {})
    return parsed.success ? parsed.data : {}
  }

  forAgent(name: string): Budget {
    return this.file().agents?.[name] ?? this.defaults.agent
  }

  forTeam(): Budget {
    return this.file().team ?? this.defaults.team
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
