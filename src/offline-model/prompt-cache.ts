/**
 * Prompt caching as the API accounts for it: for each `cache_control` mark, a prefix identical
 * up to it that was seen before is read from the cache; the prompt from the longest such prefix
 * to the last mark is written to it; the rest is plain input. Entries never expire here (the
 * API keeps them five minutes from their last use), and there is no minimum cacheable length
 * (the API's is 1,024 tokens and more), so short test prompts cache too.
 */
import { RequestRefusal } from './requests'
import { markedPrefixes, promptTokens, type PromptPart } from './prompt'
import type { PromptUsage } from './sse'

/** The API's limit on marks in one request. */
const MAX_MARKS = 4

/** Refuses, as the API does, a request with more marks than it allows. */
export function checkMarkCount(parts: readonly PromptPart[]): void {
  const marks = parts.filter((part) => part.breakpoint).length
  if (marks > MAX_MARKS)
    throw new RequestRefusal(
      400,
      'invalid_request_error',
      `A maximum of ${MAX_MARKS} blocks with cache_control may be provided. Found ${marks}.`,
    )
}

export class PromptCache {
  readonly #seen = new Set<string>()

  /**
   * Accounts one answered request's prompt, and remembers its marked prefixes for the next.
   * A request refused before an answer (a scripted HTTP error) writes nothing, as with the API.
   */
  account(model: string, parts: readonly PromptPart[]): PromptUsage {
    const prefixes = markedPrefixes(model, parts)
    const total = promptTokens(parts)
    let read = 0
    for (const prefix of prefixes) if (this.#seen.has(prefix.digest)) read = prefix.tokens
    const marked = prefixes.at(-1)?.tokens ?? 0
    for (const prefix of prefixes) this.#seen.add(prefix.digest)
    const written = Math.max(0, marked - read)
    return {
      inputTokens: total - read - written,
      cacheCreationTokens: written,
      cacheReadTokens: read,
    }
  }
}
