import { addModelUsage, costOfModels, formatUsd, type ModelUsage } from '../../shared/cost'
import type { PriceOverrides } from '../../shared/prices'
import type { MemberStatus } from '../../shared/roster'
import type { Schedule } from '../../shared/schedules'
import type { Usage } from '../../shared/transcript'
import { totalTokens } from '../../shared/usage'

/** Statuses in which an agent does nothing more by itself: a run whose agents are all so is over. */
const AT_REST: ReadonlySet<MemberStatus> = new Set(['idle', 'shutdown', 'error'])

export function atRest(status: MemberStatus): boolean {
  return AT_REST.has(status)
}

/** What a run has spent so far, over the whole team. */
export interface RunSpend {
  readonly usd: number
  readonly tokens: number
  /** Models used without a known price (their dollars are not in `usd`). */
  readonly unpriced: readonly string[]
}

/**
 * One scheduled run in progress: what the team spent since it began (every model call of every
 * agent, counted from the `usage-reported` events), and whether that reached the schedule's cap.
 */
export class ScheduleRun {
  private usage: ModelUsage = []
  /** Set when the cap was reached: the team was stopped and the run ends once all are at rest. */
  capped = false
  /** Set once its prompt went to the lead: only then can the team's rest end it. */
  started = false

  constructor(
    readonly id: string,
    readonly schedule: Schedule,
    readonly startedAt: number,
  ) {}

  count(model: string, usage: Usage): void {
    this.usage = addModelUsage(this.usage, model, usage)
  }

  spend(prices: PriceOverrides): RunSpend {
    const cost = costOfModels(this.usage, prices)
    const tokens = this.usage.reduce((sum, entry) => sum + totalTokens(entry.usage), 0)
    return { usd: cost.usd, tokens, unpriced: cost.unpriced }
  }

  /**
   * Why the run must stop now, or null. A dollar cap with a model of no known price cannot be
   * enforced: that stops the run too, unless a token cap bounds it.
   */
  capReason(spend: RunSpend): string | null {
    const { usd, tokens } = this.schedule.caps
    if (tokens !== null && spend.tokens >= tokens)
      return `it used ${spend.tokens.toLocaleString('en-US')} tokens, reaching its cap of ${tokens.toLocaleString('en-US')}`
    if (usd === null) return null
    if (spend.unpriced.length > 0 && tokens === null)
      return `its dollar cap (${formatUsd(usd)}) cannot be enforced: no price is known for ${spend.unpriced.join(', ')} (set one in Settings, or give the schedule a token cap)`
    if (spend.usd >= usd)
      return `it spent ${formatUsd(spend.usd, true)}, reaching its cap of ${formatUsd(usd)}`
    return null
  }
}
