import {
  MODEL_KEY_RULE,
  modelKeySchema,
  priceFromInput,
  type Price,
  type PriceOverrides,
} from '../../shared/prices'

/** One price as the settings form edits it: text in every field. */
export interface PriceRow {
  readonly model: string
  readonly input: string
  readonly output: string
  /** Empty: 1.25 × input (the API's 5-minute cache write). */
  readonly cacheWrite: string
  /** Empty: 0.1 × input (the API's cache read). */
  readonly cacheRead: string
}

export const MAX_PRICE = 10_000

/** The rows for saved prices, in the order they were saved. */
export function rowsFromPrices(prices: PriceOverrides): PriceRow[] {
  return Object.entries(prices).map(([model, price]) => ({
    model,
    input: String(price.input),
    output: String(price.output),
    cacheWrite: String(price.cacheWrite),
    cacheRead: String(price.cacheRead),
  }))
}

function amount(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '')
  if (!/^(\d+(\.\d{0,6})?|\.\d{1,6})$/.test(trimmed)) return null
  const value = Number(trimmed)
  return Number.isFinite(value) && value <= MAX_PRICE ? value : null
}

/**
 * The prices the rows say, or the first mistake in words ("Row 2: …"). Every amount is US
 * dollars per million tokens, 0 to 10,000; a model id appears once.
 */
export function parsePriceRows(
  rows: readonly PriceRow[],
): { ok: true; prices: PriceOverrides } | { ok: false; error: string } {
  const prices: Record<string, Price> = {}
  const seen = new Set<string>()
  for (const [index, row] of rows.entries()) {
    const where = `Price ${index + 1}`
    const model = row.model.trim()
    if (!modelKeySchema.safeParse(model).success || model === '')
      return { ok: false, error: `${where}: the model id must be ${MODEL_KEY_RULE}.` }
    if (seen.has(model)) return { ok: false, error: `${where}: ${model} has a price already.` }
    seen.add(model)
    const input = amount(row.input)
    const output = amount(row.output)
    const derived = input === null ? null : priceFromInput(input, output ?? 0)
    const cacheWrite = row.cacheWrite.trim() === '' ? derived?.cacheWrite : amount(row.cacheWrite)
    const cacheRead = row.cacheRead.trim() === '' ? derived?.cacheRead : amount(row.cacheRead)
    const fields = { input, output, 'cache write': cacheWrite, 'cache read': cacheRead }
    for (const [field, value] of Object.entries(fields)) {
      if (value === null || value === undefined)
        return {
          ok: false,
          error: `${where} (${model}): the ${field} price must be dollars per million tokens, from 0 to ${MAX_PRICE.toLocaleString('en-US')}.`,
        }
    }
    // Defined above: an own property whatever the id ("constructor" included).
    Object.defineProperty(prices, model, {
      value: { input, output, cacheWrite, cacheRead } as Price,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return { ok: true, prices }
}

/** Whether two price tables say the same (so saving would change nothing). */
export function samePrices(a: PriceOverrides, b: PriceOverrides): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
