import { useState } from 'react'
import { useAppStore } from '../store/context'
import { canStop } from '../agents/agent-actions'

/** Statuses Resume all lifts (as the runtime's resumeAll): a pause, a stall, an error. */
const RESUMABLE = new Set(['waiting', 'stalled', 'error'])

/**
 * Stop all / Resume all in the roster's header, the same commands as the Team menu: the whole
 * team halted or sent on in one click, without going agent by agent.
 */
export function TeamControls() {
  const stoppable = useAppStore((state) =>
    state.order.some((name) => {
      const status = state.agents[name]?.status
      return status !== undefined && canStop(status)
    }),
  )
  const resumable = useAppStore((state) =>
    state.order.some((name) => RESUMABLE.has(state.agents[name]?.status ?? 'idle')),
  )
  const stopAll = useAppStore((state) => state.stopAll)
  const resumeAll = useAppStore((state) => state.resumeAll)
  const reportFailure = useAppStore((state) => state.reportFailure)
  const [busy, setBusy] = useState(false)
  const openDialog = useAppStore((state) => state.openDialog)
  // Three numbers, not an object: each selector's answer compares equal while nothing changed.
  const mcpSummary = {
    total: useAppStore((state) => state.mcp?.servers.length ?? 0),
    running: useAppStore(
      (state) => state.mcp?.servers.filter((server) => server.status === 'running').length ?? 0,
    ),
    failing: useAppStore(
      (state) =>
        state.mcp?.servers.some(
          (server) => server.status === 'failed' || server.status === 'invalid',
        ) ?? false,
    ),
  }

  function run(action: () => Promise<unknown>, failure: string): void {
    setBusy(true)
    action()
      .catch((error: unknown) => reportFailure(failure, error))
      .finally(() => setBusy(false))
  }

  return (
    <div className="team-controls">
      <button
        type="button"
        className="button button-ghost button-small"
        disabled={busy || !stoppable}
        title="Stop every agent that works, waits or stalls"
        onClick={() => run(stopAll, 'Could not stop the team')}
      >
        Stop all
      </button>
      <button
        type="button"
        className="button button-ghost button-small"
        disabled={busy || !resumable}
        title="Let every paused, stalled or failed agent go on"
        onClick={() => run(resumeAll, 'Could not resume the team')}
      >
        Resume all
      </button>
      <button
        type="button"
        className={`button button-ghost button-small${mcpSummary.failing ? ' mcp-failing' : ''}`}
        title="The team's MCP servers: state, tools, errors"
        onClick={() => openDialog({ kind: 'mcp' })}
      >
        MCP{mcpSummary.total > 0 ? ` ${mcpSummary.running}/${mcpSummary.total}` : ''}
      </button>
    </div>
  )
}
