import { useEffect, useRef, type RefObject } from 'react'
import { pauseReason } from '../store/budgets'
import { useAppStoreApi, useAppStore } from '../store/context'
import type { LiveState, LiveTool } from '../store/state'
import { summarizeInput } from '../transcript/rows'
import { describeTokens, formatTokens, lastLines } from './format'
import { StatusBadge } from './status'

/** Lines of streaming text a pane shows: enough to follow, little enough for 8 panes on a laptop. */
const PANE_LINES = 14

/** The whole team at once: one live pane per agent (status, current tool call, streaming text). */
export function ActivityPanes() {
  const order = useAppStore((state) => state.order)
  return (
    <div className="activity-grid" data-count={order.length}>
      {order.map((name) => (
        <ActivityPane key={name} name={name} />
      ))}
    </div>
  )
}

function ActivityPane({ name }: { readonly name: string }) {
  const agent = useAppStore((state) => state.agents[name])
  const tool = useAppStore((state) => currentTool(state.live[name]?.tools))
  const select = useAppStore((state) => state.select)
  const text = useRef<HTMLPreElement>(null)
  useStreamingText(name, text)
  if (agent === undefined) return null
  return (
    <section
      className={`activity-pane pane-${agent.status}`}
      data-testid={`activity-pane-${name}`}
      aria-label={`${name} activity`}
    >
      <header className="pane-header">
        <button type="button" className="pane-title" onClick={() => select(name, 'conversation')}>
          <span className="pane-name">{name}</span>
          <span className="pane-role">{agent.role}</span>
        </button>
        <StatusBadge name={`${name}-pane`} status={agent.status} reason={agent.statusReason} />
      </header>
      {tool ? (
        <div
          className={`pane-tool pane-phase-${tool.phase}${tool.isError ? ' pane-tool-error' : ''}`}
        >
          <span className="pane-tool-name">{tool.name}</span>
          <span className="pane-tool-input">{summarizeInput(tool.input)}</span>
          <span className="pane-tool-state">
            {tool.phase === 'finished'
              ? tool.isError
                ? 'error'
                : 'done'
              : tool.phase === 'input'
                ? 'writing…'
                : 'running…'}
          </span>
        </div>
      ) : (
        <div className="pane-tool pane-tool-none">no tool call yet</div>
      )}
      {agent.status === 'error' && agent.failure ? (
        <p className="pane-error">{agent.failure.message}</p>
      ) : (agent.status === 'waiting' || agent.status === 'stalled') && agent.statusReason ? (
        <p className="pane-reason">{pauseReason(agent) ?? agent.statusReason}</p>
      ) : null}
      <pre ref={text} className="pane-text" />
      <footer className="pane-footer">
        <span title={describeTokens(agent.usage)}>{formatTokens(agent.usage)}</span>
        {agent.pending > 0 ? (
          <span className="unread-badge small">{agent.pending} unread</span>
        ) : null}
      </footer>
    </section>
  )
}

function currentTool(tools: readonly LiveTool[] | undefined): LiveTool | null {
  if (tools === undefined || tools.length === 0) return null
  const active = tools.filter((tool) => tool.phase !== 'finished')
  return active[active.length - 1] ?? tools[tools.length - 1] ?? null
}

function paneText(live: LiveState | undefined): string {
  if (live === undefined) return ''
  return lastLines(live.text.length > 0 ? live.text : live.lastText, PANE_LINES)
}

/**
 * The streaming text changes every frame for every agent: it is written to the DOM straight
 * from a transient store subscription, without re-rendering the pane.
 */
function useStreamingText(name: string, target: RefObject<HTMLPreElement | null>): void {
  const store = useAppStoreApi()
  useEffect(() => {
    let shown: LiveState | undefined | null = null // null: nothing written yet
    const write = (live: LiveState | undefined) => {
      if (live === shown || target.current === null) return
      shown = live
      const element = target.current
      const text = paneText(live)
      element.textContent = text.length > 0 ? text : 'Nothing streamed yet.'
      element.classList.toggle('is-empty', text.length === 0)
      element.classList.toggle('is-streaming', (live?.text.length ?? 0) > 0)
      element.scrollTop = element.scrollHeight
    }
    write(store.getState().live[name])
    return store.subscribe((state) => write(state.live[name]))
  }, [store, name, target])
}
