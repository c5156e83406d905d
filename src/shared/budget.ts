import { z } from 'zod'

/** The most a dollar budget may be: far above any real one, so a typo is caught. */
export const MAX_BUDGET_USD = 1_000_000

/** A dollar limit: a positive amount, or null for none. */
export const usdLimitSchema = z.number().finite().positive().max(MAX_BUDGET_USD).nullable()

/**
 * A limit on tokens (every prompt token, cached or not, and output), on model calls and on
 * dollars; null means none. What config.json's `budgets` holds for an agent or the team.
 */
export const budgetSchema = z.object({
  tokens: z.number().int().min(1).nullable(),
  rounds: z.number().int().min(1).nullable(),
  usd: usdLimitSchema,
})
export type Budget = z.infer<typeof budgetSchema>

export const NO_BUDGET: Budget = { tokens: null, rounds: null, usd: null }
