import { describe, expect, it } from 'vitest'
import {
  addCost,
  addModelUsage,
  costOf,
  costOfModels,
  formatCost,
  formatUsd,
  NO_COST,
} from '../../../src/shared/cost'
import {
  DEFAULT_PRICES,
  priceFor,
  priceOverridesSchema,
  type Price,
} from '../../../src/shared/prices'

const sonnet: Price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }

describe('prices', () => {
  it("match Anthropic's list by family prefix, longest first, at a version boundary", () => {
    expect(priceFor('claude-sonnet-4-5')).toEqual(sonnet)
    expect(priceFor('claude-sonnet-4-20250514')).toEqual(sonnet)
    expect(priceFor('claude-sonnet-4-6@20260101')).toEqual(sonnet)
    // Opus 4.5 and later at $5/$25; Opus 4 and 4.1 still at $15/$75.
    expect(priceFor('claude-opus-4-5-20251101')).toEqual({
      input: 5,
      output: 25,
      cacheWrite: 6.25,
      cacheRead: 0.5,
    })
    expect(priceFor('claude-opus-4-1-20250805')?.input).toBe(15)
    expect(priceFor('claude-opus-4-20250514')?.output).toBe(75)
    expect(priceFor('claude-haiku-4-5-20251001')).toEqual({
      input: 1,
      output: 5,
      cacheWrite: 1.25,
      cacheRead: 0.1,
    })
    expect(priceFor('claude-3-5-haiku-20241022')).toEqual({
      input: 0.8,
      output: 4,
      cacheWrite: 1,
      cacheRead: 0.08,
    })
  })

  it('know nothing of other models: no price, never a guess', () => {
    for (const model of ['local-llama', 'gpt-5', 'claude-sonnet-40', 'claude-sonnet', ''])
      expect(priceFor(model)).toBeNull()
  })

  it('price the built-in offline model at nothing: the demo costs $0, not "unknown"', () => {
    expect(priceFor('offline-demo')).toEqual({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 })
    expect(costOf({ input_tokens: 5_000, output_tokens: 500 }, priceFor('offline-demo')!)).toBe(0)
    expect(priceFor('offline-test')).toBeNull()
  })

  it("take the person's own price first, for an id or a whole family", () => {
    const mine: Price = { input: 1, output: 2, cacheWrite: 3, cacheRead: 4 }
    expect(priceFor('offline-demo', { 'offline-demo': mine })).toEqual(mine)
    expect(priceFor('claude-sonnet-4-5', { 'claude-sonnet-4': mine })).toEqual(mine)
    // The longest key wins among the person's own.
    const exact: Price = { ...mine, input: 9 }
    expect(
      priceFor('claude-sonnet-4-5', { 'claude-sonnet-4': mine, 'claude-sonnet-4-5': exact }),
    ).toEqual(exact)
  })

  it('every default is a valid override (the settings shape) with the cache multipliers', () => {
    expect(priceOverridesSchema.safeParse(DEFAULT_PRICES).success).toBe(true)
    for (const price of Object.values(DEFAULT_PRICES)) {
      expect(price.cacheWrite).toBeCloseTo(price.input * 1.25, 9)
      expect(price.cacheRead).toBeCloseTo(price.input * 0.1, 9)
    }
  })

  it('refuse hostile prices with the field that is wrong', () => {
    const bad = (value: unknown) => {
      const parsed = priceOverridesSchema.safeParse(value)
      return parsed.success ? null : parsed.error.issues.map((issue) => issue.path.join('.'))
    }
    const fine = { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 }
    expect(bad({ m: fine })).toBeNull()
    expect(bad({ m: { ...fine, input: -1 } })).toEqual(['m.input'])
    expect(bad({ m: { ...fine, output: Number.POSITIVE_INFINITY } })).toEqual(['m.output'])
    expect(bad({ m: { ...fine, cacheRead: '0.1' } })).toEqual(['m.cacheRead'])
    expect(bad({ m: { ...fine, cacheWrite: 1e9 } })).toEqual(['m.cacheWrite'])
    expect(bad({ m: { input: 1 } })).not.toBeNull()
    // A "__proto__" key never reaches an object: zod drops it, and the prototype stays.
    const proto = priceOverridesSchema.parse(
      JSON.parse('{"__proto__": {"input": 1, "output": 1, "cacheWrite": 1, "cacheRead": 1}}'),
    )
    expect(Object.keys(proto)).toEqual([])
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
    expect(bad({ _hidden: fine })).not.toBeNull()
    expect(bad({ 'has space': fine })).not.toBeNull()
    expect(bad({ ['x'.repeat(201)]: fine })).not.toBeNull()
    expect(bad([fine])).not.toBeNull()
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`m${i}`, fine]))
    expect(bad(many)).not.toBeNull()
  })
})

describe('cost', () => {
  it('prices each kind of token at its own rate (hand-computed)', () => {
    // 1,000 × $3 + 2,000 × $15 + 4,000 × $3.75 + 100,000 × $0.30, a million each:
    // 0.003 + 0.03 + 0.015 + 0.03 = $0.078.
    const usage = {
      input_tokens: 1_000,
      output_tokens: 2_000,
      cache_creation_input_tokens: 4_000,
      cache_read_input_tokens: 100_000,
    }
    expect(costOf(usage, sonnet)).toBeCloseTo(0.078, 12)
    // Records written before prompt caching have no cache fields: they cost as uncached.
    expect(costOf({ input_tokens: 1_000_000, output_tokens: 0 }, sonnet)).toBe(3)
    expect(costOf({ input_tokens: 0, output_tokens: 0 }, sonnet)).toBe(0)
  })

  it('adds per model, and says which models have no price instead of counting them as $0', () => {
    let usage = addModelUsage([], 'claude-sonnet-4-5', { input_tokens: 1_000, output_tokens: 100 })
    usage = addModelUsage(usage, 'claude-haiku-4-5', {
      input_tokens: 10_000,
      output_tokens: 1_000,
      cache_read_input_tokens: 50_000,
    })
    usage = addModelUsage(usage, 'claude-sonnet-4-5', { input_tokens: 1_000, output_tokens: 100 })
    expect(usage.map((entry) => entry.model)).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5'])
    // Sonnet: 2,000 × $3 + 200 × $15 = $0.009. Haiku: 10,000 × $1 + 1,000 × $5 + 50,000 × $0.10
    // = $0.02. Together $0.029.
    const known = costOfModels(usage)
    expect(known.usd).toBeCloseTo(0.029, 12)
    expect(known.unpriced).toEqual([])
    expect(formatCost(known)).toBe('$0.03')

    const partly = costOfModels(
      addModelUsage(usage, 'local-llama', { input_tokens: 5, output_tokens: 5 }),
    )
    expect(partly.usd).toBeCloseTo(0.029, 12)
    expect(partly.unpriced).toEqual(['local-llama'])
    expect(formatCost(partly)).toBe('$0.03 + unknown')

    const unknown = costOfModels([
      { model: 'local-llama', usage: { input_tokens: 5, output_tokens: 5 } },
    ])
    expect(unknown).toEqual({ usd: 0, unpriced: ['local-llama'] })
    expect(formatCost(unknown)).toBe('unknown price')
    // A model that used no tokens is neither priced nor unknown.
    expect(
      costOfModels([{ model: 'local-llama', usage: { input_tokens: 0, output_tokens: 0 } }]),
    ).toEqual(NO_COST)
  })

  it('keeps "partly unknown" through totals', () => {
    const total = addCost(addCost({ usd: 0.5, unpriced: [] }, { usd: 0.25, unpriced: ['a'] }), {
      usd: 0,
      unpriced: ['a', 'b'],
    })
    expect(total).toEqual({ usd: 0.75, unpriced: ['a', 'b'] })
    expect(addCost(NO_COST, NO_COST)).toEqual(NO_COST)
  })

  it('formats dollars without ever rounding a spend down to $0', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(0.0004)).toBe('<$0.01')
    expect(formatUsd(0.0004, true)).toBe('$0.0004')
    expect(formatUsd(0.04)).toBe('$0.04')
    expect(formatUsd(12.3)).toBe('$12.30')
    expect(formatUsd(0.25, true)).toBe('$0.2500')
    expect(formatUsd(5, true)).toBe('$5.00')
    expect(formatUsd(1234.4)).toBe('$1,234')
  })
})
