/**
 * How many tokens a model's prompt may hold. Three sources, the most specific first: what the
 * endpoint itself said in a "prompt is too long" refusal (learned for the session), the
 * `contextWindow` setting (for endpoints serving other models), and a table of Claude models.
 */

/** The Messages API's window for every current Claude model, and the guess for unknown ones. */
export const DEFAULT_CONTEXT_WINDOW = 200_000

/** Model-id prefixes with their windows. Every Claude 4.x family (opus, sonnet, haiku) is 200k. */
const KNOWN_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  ['claude-opus-4', 200_000],
  ['claude-sonnet-4', 200_000],
  ['claude-haiku-4', 200_000],
  ['claude-', 200_000],
]

/** The table's window for a model id, or undefined for a model it does not know. */
export function knownContextWindow(model: string): number | undefined {
  return KNOWN_WINDOWS.find(([prefix]) => model.startsWith(prefix))?.[1]
}

/**
 * The figures of the API's refusal `prompt is too long: 210345 tokens > 200000 maximum`, found
 * anywhere in a message (the runtime wraps the endpoint's text in its own words), or null.
 */
export function parsePromptTooLong(message: string): { tokens: number; maximum: number } | null {
  const match = /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum/i.exec(message)
  if (!match) return null
  const tokens = Number(match[1])
  const maximum = Number(match[2])
  return maximum > 0 ? { tokens, maximum } : null
}

/**
 * One agent's knowledge of its windows for this session: the configured and tabled figures,
 * corrected by what the endpoint said. Learned figures are kept per model, since an agent's
 * model may change between turns.
 */
export class ContextWindows {
  private readonly learned = new Map<string, number>()

  constructor(private readonly configured: () => number | undefined = () => undefined) {}

  /** The window to plan for with `model`. */
  of(model: string): number {
    return (
      this.learned.get(model) ??
      this.configured() ??
      knownContextWindow(model) ??
      DEFAULT_CONTEXT_WINDOW
    )
  }

  /** The endpoint stated the maximum for `model`; the answer is true when it was news. */
  learn(model: string, maximum: number): boolean {
    if (this.learned.get(model) === maximum) return false
    this.learned.set(model, maximum)
    return true
  }
}
