import type { Budget } from '../../shared/budget'
import { formatUsd, type Cost } from '../../shared/cost'
import type { AssistantBlock, Usage } from '../../shared/transcript'
import { totalTokens } from '../../shared/usage'

export { NO_BUDGET, type Budget } from '../../shared/budget'

export interface Spend {
  readonly usage: Usage
  readonly rounds: number
  /** What the calls cost; models without a price are listed, their tokens not counted. */
  readonly cost: Cost
}

/** Why the next model call would go past a budget, or null when it may go ahead. */
export function budgetProblem(
  scope: 'agent' | 'team',
  budget: Budget,
  spend: Spend,
): string | null {
  const tokens = totalTokens(spend.usage)
  if (budget.tokens !== null && tokens >= budget.tokens) {
    return `the ${scope}'s token budget is used up (${tokens} of ${budget.tokens}); raise it to resume`
  }
  if (budget.rounds !== null && spend.rounds >= budget.rounds) {
    return `the ${scope}'s round budget is used up (${spend.rounds} of ${budget.rounds} model calls); raise it to resume`
  }
  if (budget.usd === null) return null
  // A dollar limit that cannot be checked is not passed silently: the agent waits for a price.
  if (spend.cost.unpriced.length > 0) {
    return `the ${scope}'s dollar budget (${formatUsd(budget.usd, true)}) cannot be enforced: no price is known for ${spend.cost.unpriced.join(', ')}; set one in Settings > Prices, or lift the dollar budget`
  }
  if (spend.cost.usd >= budget.usd) {
    return `the ${scope}'s dollar budget is used up (${formatUsd(spend.cost.usd, true)} of ${formatUsd(budget.usd, true)}); raise it to resume`
  }
  return null
}

export const LOOP_REPEATS = 3

/**
 * Notices a model stuck repeating itself: the same tool with the same input three times in a
 * row pauses the agent.
 */
export class LoopDetector {
  private last: string | null = null
  private count = 0

  /** Records a call; returns the reason to pause when it is the third identical one in a row. */
  observe(name: string, input: unknown): string | null {
    const key = `${name} ${stableJson(input)}`
    this.count = key === this.last ? this.count + 1 : 1
    this.last = key
    if (this.count < LOOP_REPEATS) return null
    const shown = key.length > 200 ? `${key.slice(0, 199)}…` : key
    return `it made the same tool call ${LOOP_REPEATS} times in a row (${shown}); it looks stuck in a loop`
  }

  reset(): void {
    this.last = null
    this.count = 0
  }
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    // Code-unit order: only equality of the keys matters, and localeCompare is slow.
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

/** The answer to a tool call whose input the output limit cut off: it is never run half-read. */
export const CUT_OFF =
  'the reply reached the output limit (max_tokens) before this call was complete, so its input is cut off; it was not run. Make the call again with a smaller input (e.g. write a large file in parts).'

/** The call a reply that hit max_tokens ended in, whose input is therefore incomplete. */
export function cutOffCall(turn: {
  stop_reason: string | null
  content: readonly AssistantBlock[]
}) {
  const last = turn.content[turn.content.length - 1]
  return turn.stop_reason === 'max_tokens' && last?.type === 'tool_use' ? last.id : null
}
