import { z } from 'zod'

/**
 * What a model's tokens cost, in US dollars per million tokens: uncached input, output, a write
 * to the prompt cache (the 5-minute write, 1.25× input) and a read from it (0.1× input).
 */
export const priceSchema = z.object({
  input: z.number().finite().min(0).max(10_000),
  output: z.number().finite().min(0).max(10_000),
  cacheWrite: z.number().finite().min(0).max(10_000),
  cacheRead: z.number().finite().min(0).max(10_000),
})
export type Price = z.infer<typeof priceSchema>

/**
 * A model id or family prefix a price is set for. It starts with a letter or digit, so no
 * "__proto__" can reach a plain object as a key.
 */
export const MODEL_KEY_RULE =
  'letters, digits and . _ : @ / [ ] -, starting with a letter or digit, at most 200 characters'
export const modelKeySchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]*$/, { message: `a model id is ${MODEL_KEY_RULE}` })

/** The person's prices (settings.json's `prices`), each for a model id or a family prefix. */
export const priceOverridesSchema = z
  .record(modelKeySchema, priceSchema)
  .refine((prices) => Object.keys(prices).length <= 100, { message: 'at most 100 prices' })
export type PriceOverrides = z.infer<typeof priceOverridesSchema>

/** A price from input alone, with the API's cache multipliers (5-minute write, read). */
export function priceFromInput(input: number, output: number): Price {
  return { input, output, cacheWrite: round(input * 1.25), cacheRead: round(input * 0.1) }
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

/**
 * Claude's list prices, matched by family prefix (longest first). Source: Anthropic's pricing
 * page, https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing"), read
 * 2026-12-03. Opus went from $15/$75 to $5/$25 with 4.5; every Sonnet 4.x has one price.
 * Models not listed (newer families, other vendors' models) have no price until one is set.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-5': priceFromInput(5, 25),
  'claude-opus-4-6': priceFromInput(5, 25),
  'claude-opus-4-7': priceFromInput(5, 25),
  'claude-opus-4-8': priceFromInput(5, 25),
  'claude-opus-4': priceFromInput(15, 75),
  'claude-sonnet-4': priceFromInput(3, 15),
  'claude-3-7-sonnet': priceFromInput(3, 15),
  'claude-haiku-4': priceFromInput(1, 5),
  'claude-3-5-haiku': priceFromInput(0.8, 4),
  // The built-in offline model (the demo, "Use the offline model"): it runs here and costs
  // nothing, so its spend shows as $0.00 rather than "unknown price".
  'offline-demo': priceFromInput(0, 0),
}

/**
 * Whether `key` names `model`: the same id, or a prefix of it that ends where a version or a
 * date begins ("claude-sonnet-4" covers "claude-sonnet-4-5-20250929", not "claude-sonnet-40").
 */
export function keyCovers(key: string, model: string): boolean {
  if (!model.startsWith(key)) return false
  const next = model.charAt(key.length)
  return next === '' || next === '-' || next === '@' || next === '['
}

function longestCovering(
  prices: Readonly<Record<string, Price>>,
  model: string,
): { key: string; price: Price } | null {
  let best: { key: string; price: Price } | null = null
  for (const [key, price] of Object.entries(prices)) {
    if (keyCovers(key, model) && (best === null || key.length > best.key.length))
      best = { key, price }
  }
  return best
}

/** The price of `model`: the person's own first, then Claude's list price; null when unknown. */
export function priceFor(model: string, overrides: PriceOverrides = {}): Price | null {
  return (
    (longestCovering(overrides, model) ?? longestCovering(DEFAULT_PRICES, model))?.price ?? null
  )
}
