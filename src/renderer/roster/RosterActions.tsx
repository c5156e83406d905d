import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import { latestShutdownOf } from '../store/protocols'
import type { AgentState } from '../store/state'
import { canRespawn } from '../store/ui'
import { StopResume } from '../agents/StopResume'

/**
 * A roster member's actions. Stop keeps its place whatever the status (StopResume), and the
 * buttons that come and go sit after it. Shut down asks first.
 */
export function RosterActions({ agent }: { readonly agent: AgentState }) {
  const select = useAppStore((state) => state.select)
  const openDialog = useAppStore((state) => state.openDialog)
  const requestShutdown = useAppStore((state) => state.requestShutdown)
  const reportFailure = useAppStore((state) => state.reportFailure)
  const shutdownPending = useAppStore(
    (state) => latestShutdownOf(state.protocols, agent.name)?.status === 'pending',
  )
  const name = agent.name
  const isLead = name === LEAD
  return (
    <div className="roster-actions">
      <button type="button" className="link-button" onClick={() => select(name, 'inbox')}>
        Message
      </button>
      <StopResume agent={agent} place="roster" />
      {/* While it works it is about to read the pending request; idle, it let it pass. */}
      {!isLead &&
      agent.status !== 'shutdown' &&
      !(shutdownPending && agent.status === 'working') ? (
        <button
          type="button"
          className="link-button"
          title={
            shutdownPending
              ? `${name} has not answered the last request: ask again`
              : `Ask ${name} to shut down: it answers, finishes its step and ends (asks first)`
          }
          onClick={() =>
            shutdownPending
              ? requestShutdown(name).catch((error: unknown) =>
                  reportFailure(`Could not ask ${name} to shut down`, error),
                )
              : openDialog({ kind: 'shutdown', name })
          }
        >
          {shutdownPending ? 'Ask again' : 'Shut down…'}
        </button>
      ) : null}
      <button
        type="button"
        className="link-button"
        title={`Change the model and thinking of ${name} (from its next turn)`}
        onClick={() => openDialog({ kind: 'model', name })}
      >
        Model…
      </button>
      <button
        type="button"
        className="link-button"
        title={`Change the tools of ${name} and what waits for you (from its next tool call)`}
        onClick={() => openDialog({ kind: 'profile', name })}
      >
        Profile…
      </button>
      {!isLead && canRespawn(agent.status) ? (
        <button
          type="button"
          className="link-button"
          onClick={() =>
            openDialog({
              kind: 'spawn',
              prefill: { name, role: agent.role, model: agent.model, thinking: agent.thinking },
            })
          }
        >
          Re-spawn
        </button>
      ) : null}
      {!isLead && agent.status !== 'working' ? (
        <button
          type="button"
          className="link-button link-danger"
          title={`Take ${name} off the team (asks what to do with unmerged work)`}
          onClick={() => openDialog({ kind: 'remove', name })}
        >
          Remove…
        </button>
      ) : null}
    </div>
  )
}
