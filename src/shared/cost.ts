import { z } from 'zod'
import { priceFor, type Price, type PriceOverrides } from './prices'
import { usageSchema, type Usage } from './transcript'
import { addUsage, NO_USAGE, totalTokens } from './usage'

/**
 * Usage kept per model: a price is per model, and an agent may change models between turns, so
 * a total across models could not be priced. A list, not a record: a model id comes from the
 * endpoint and is never used as an object key.
 */
export const modelUsageSchema = z.array(z.object({ model: z.string(), usage: usageSchema }))
export type ModelUsage = z.infer<typeof modelUsageSchema>

/** `usage` of one call of `model` added to a per-model total (a new list). */
export function addModelUsage(total: ModelUsage, model: string, usage: Usage): ModelUsage {
  const index = total.findIndex((entry) => entry.model === model)
  if (index === -1) return [...total, { model, usage: addUsage(NO_USAGE, usage) }]
  return total.map((entry, at) =>
    at === index ? { model, usage: addUsage(entry.usage, usage) } : entry,
  )
}

/** Two per-model totals added (a team's from its agents'). */
export function addModelUsages(total: ModelUsage, more: ModelUsage): ModelUsage {
  return more.reduce((sum, entry) => addModelUsage(sum, entry.model, entry.usage), total)
}

/** What `usage` costs at `price`, in US dollars. */
export function costOf(usage: Usage, price: Price): number {
  return (
    (usage.input_tokens * price.input +
      usage.output_tokens * price.output +
      (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite +
      (usage.cache_read_input_tokens ?? 0) * price.cacheRead) /
    1_000_000
  )
}

/**
 * A cost in dollars, and the models whose tokens it leaves out because they have no price. With
 * any such model the figure is only a lower bound ("partly unknown"), never a complete total.
 */
export interface Cost {
  readonly usd: number
  readonly unpriced: readonly string[]
}

export const NO_COST: Cost = { usd: 0, unpriced: [] }

/** The cost of per-model usage; models that used no tokens count neither way. */
export function costOfModels(usage: ModelUsage, overrides: PriceOverrides = {}): Cost {
  let usd = 0
  const unpriced: string[] = []
  for (const entry of usage) {
    if (totalTokens(entry.usage) === 0) continue
    const price = priceFor(entry.model, overrides)
    if (price === null) {
      if (!unpriced.includes(entry.model)) unpriced.push(entry.model)
    } else usd += costOf(entry.usage, price)
  }
  return { usd, unpriced }
}

/** Two costs added: unknown parts stay unknown. */
export function addCost(total: Cost, cost: Cost): Cost {
  return {
    usd: total.usd + cost.usd,
    unpriced: [...total.unpriced, ...cost.unpriced.filter((m) => !total.unpriced.includes(m))],
  }
}

/**
 * Dollars for people: "$0.04", "$12.30", "$1,234"; under a cent "<$0.01" (or, `precise`, four
 * decimals, for a budget's reason). Never "$0" for a positive amount.
 */
export function formatUsd(usd: number, precise = false): string {
  if (usd === 0) return '$0.00'
  if (usd < 0.01) return precise ? `$${usd.toFixed(4)}` : '<$0.01'
  if (usd < 1000) return `$${usd.toFixed(precise && usd < 1 ? 4 : 2)}`
  return `$${Math.round(usd).toLocaleString('en-US')}`
}

/** A cost for people: "$0.04", "unknown price" (nothing priced), "$0.04 + unknown" (partly). */
export function formatCost(cost: Cost): string {
  if (cost.unpriced.length === 0) return formatUsd(cost.usd)
  return cost.usd === 0 ? 'unknown price' : `${formatUsd(cost.usd)} + unknown`
}
