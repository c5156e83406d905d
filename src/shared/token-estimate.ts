/**
 * A token count from characters: about one token per four characters of the JSON sent, never
 * less than one. Used where an endpoint cannot count (no `count_tokens`) and by the offline
 * model server, so both sides of a test estimate alike.
 */
export function estimateTokens(value: unknown): number {
  const serialized = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
  return Math.max(1, Math.ceil(serialized.length / 4))
}
