import { addUsage, NO_USAGE } from '../../../shared/usage'
import { describeSpend, formatSpendFull } from '../../ui/format'
import { useCost } from '../../ui/useCost'
import type { TurnSpend } from './turn-spend'

/** "2 calls · 12.3k tokens · $0.04" beside a turn: what answering it has cost so far. */
export function TurnSpendView({ spend }: { readonly spend: TurnSpend }) {
  const cost = useCost(spend.usage)
  if (spend.calls === 0) return null
  const usage = spend.usage.reduce((total, entry) => addUsage(total, entry.usage), NO_USAGE)
  return (
    <span className="turn-spend" title={describeSpend(usage, cost)} data-testid="turn-spend">
      {spend.calls === 1 ? '1 call' : `${spend.calls} calls`} · {formatSpendFull(usage, cost)}
    </span>
  )
}
