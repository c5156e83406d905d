import { LEAD } from '../../shared/names'
import { isBudgetPause, pauseReason } from '../store/budgets'
import { useAppStore } from '../store/context'
import type { AgentState } from '../store/state'
import { own } from '../../shared/own'

/**
 * Why the agent is not working, where the person is looking: an error with its message, a
 * stall, a pause (a budget: with the way to raise it) or a wait. The actions are in the view's
 * header; a refused key is the team banner's, said once above.
 */
export function AgentStatusNotice({ name }: { readonly name: string }) {
  const agent = useAppStore((state) => own(state.agents, name))
  const teamAlert = useAppStore((state) => state.alert !== null)
  const openDialog = useAppStore((state) => state.openDialog)
  if (agent === undefined || agent.status === 'working') return null
  const who = name === LEAD ? 'The lead' : name
  const paused = pauseReason(agent)

  if (agent.failure !== null) {
    if (teamAlert) return null
    return (
      <div className="banner banner-error" role="alert" data-code={agent.failure.code}>
        <strong>{who} stopped with an error</strong>
        <span className="banner-message">{agent.failure.message}</span>
        <span className="banner-hint">
          {agent.status === 'error'
            ? 'Resume retries it; a new message wakes it too.'
            : 'A new message wakes it again.'}
        </span>
      </div>
    )
  }
  if (isBudgetPause(agent)) {
    return (
      <div className="banner banner-warning" role="status" data-testid="budget-pause">
        <div className="banner-text">
          <strong>{who} is paused</strong>
          <span className="banner-message">{paused}</span>
          <span className="banner-hint">Raise or lift the limit and it goes on by itself.</span>
        </div>
        <button
          type="button"
          className="button button-primary"
          onClick={() => openDialog({ kind: 'budget', name })}
        >
          Set budget…
        </button>
      </div>
    )
  }
  if (paused !== null) {
    if (teamAlert) return null
    return <WaitNotice agent={agent} title={`${who} is paused`} hint="Resume lets it go on." />
  }
  if (agent.status === 'stalled')
    return (
      <WaitNotice
        agent={agent}
        title={`${who}'s model stream went silent`}
        hint="Retry calls the model again; Stop ends this activation."
      />
    )
  if (agent.status === 'waiting')
    return <WaitNotice agent={agent} title={`${who} is waiting`} hint={null} />
  return null
}

function WaitNotice({
  agent,
  title,
  hint,
}: {
  readonly agent: AgentState
  readonly title: string
  readonly hint: string | null
}) {
  const reason = pauseReason(agent) ?? agent.statusReason
  return (
    <div className="banner banner-warning" role="status">
      <strong>{title}</strong>
      {reason ? <span className="banner-message">{reason}</span> : null}
      {hint ? <span className="banner-hint">{hint}</span> : null}
    </div>
  )
}
