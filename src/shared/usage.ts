import type { Usage } from './transcript'

export const NO_USAGE: Usage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
}

/** Two usages added field by field (totals of an agent, of a team). */
export function addUsage(total: Usage, usage: Usage): Usage {
  return {
    input_tokens: total.input_tokens + usage.input_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    cache_creation_input_tokens:
      (total.cache_creation_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens:
      (total.cache_read_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
  }
}

/** Every prompt token, cached or not: what the model read. */
export function promptTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  )
}

/**
 * Every token of the calls, prompt and reply. Budgets count these: a cached prompt is cheaper,
 * but it still fills the context and is still billed.
 */
export function totalTokens(usage: Usage): number {
  return promptTokens(usage) + usage.output_tokens
}

/** The share of all tokens that were read from the prompt cache, 0 to 1 (0 with no tokens). */
export function cachedShare(usage: Usage): number {
  const total = totalTokens(usage)
  return total === 0 ? 0 : (usage.cache_read_input_tokens ?? 0) / total
}
