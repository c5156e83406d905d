import { cachedShare, totalTokens } from '../../shared/usage'
import { useAppStore } from '../store/context'
import type { AgentState } from '../store/state'
import { describeSpend, formatCostSpend, formatPercent, formatSpend } from '../ui/format'
import { useCost } from '../ui/useCost'
import { StopResume } from './StopResume'

/**
 * The open agent's spend against its budget, and what the person can do about its status:
 * Resume (Retry for a stall) and Stop for a wait or a stall. Stop while it works sits by the
 * message box, where the work shows.
 */
export function AgentControls({ agent }: { readonly agent: AgentState }) {
  const openDialog = useAppStore((state) => state.openDialog)
  const name = agent.name
  const tokens = totalTokens(agent.usage)
  const cached = cachedShare(agent.usage)
  const cost = useCost(agent.usageByModel)
  return (
    <div className="agent-controls">
      <span className="view-tokens" title={describeSpend(agent.usage, cost)} data-testid="spend">
        {formatSpend(tokens, agent.budget.tokens, 'token')} ·{' '}
        {cached > 0 ? `${formatPercent(cached)} cached · ` : ''}
        {formatSpend(agent.rounds, agent.budget.rounds, 'round')} ·{' '}
        {formatCostSpend(cost, agent.budget.usd)}
      </span>
      <button
        type="button"
        className="button button-ghost button-small"
        title={`Token, round and dollar budget of ${name}`}
        onClick={() => openDialog({ kind: 'budget', name })}
      >
        Set budget…
      </button>
      <button
        type="button"
        className="button button-ghost button-small"
        title={`The instruction files and team note in ${name}'s system prompt`}
        onClick={() => openDialog({ kind: 'instructions', name })}
      >
        Instructions…
      </button>
      <StopResume agent={agent} place="header" />
    </div>
  )
}
