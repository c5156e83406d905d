import { memo, startTransition, useEffect, useState } from 'react'
import { Markdown } from '../ui/markdown/Markdown'
import { pauseReason } from '../store/budgets'
import { useAppStoreApi, useAppStore } from '../store/context'
import type { AgentState, LiveTool } from '../store/state'
import { summarizeInput } from '../chat/transcript/rows'
import { bashOutcome, toolTitle } from '../chat/transcript/tool-views'
import { describeSpend, formatSpendFull } from '../ui/format'
import { useCost } from '../ui/useCost'
import { NOTHING_STREAMED, PaneTextWriter, type PaneShown } from './pane-text'
import { capacityFor } from './pane-tail'
import { watchPanes, type PaneObservers } from './pane-observers'
import { StatusBadge } from '../ui/status'
import { own } from '../../shared/own'

/** The whole team at once: one live pane per agent (status, current tool call, streaming text). */
export function ActivityPanes() {
  const order = useAppStore((state) => state.order)
  const store = useAppStoreApi()
  // One writer for all panes: their streaming text goes to the DOM in one frame.
  const [writer] = useState(() => new PaneTextWriter(store))
  useEffect(() => writer.start(), [writer])
  // Panes out of view of the grid are not written until they scroll back in, and each is
  // given what its box can show.
  const [grid, setGrid] = useState<HTMLDivElement | null>(null)
  const [observers, setObservers] = useState<PaneObservers | null>(null)
  useEffect(() => {
    if (grid === null) return
    const watcher = watchPanes(grid, {
      visible: (name, visible) => writer.setVisible(name, visible),
      resized: (name, width, height) => writer.setCapacity(name, capacityFor(width, height)),
    })
    setObservers(watcher)
    return () => watcher.dispose()
  }, [grid, writer])
  // After a reload nothing has streamed yet: each pane starts from its transcript's end.
  const loadActivity = useAppStore((state) => state.loadActivity)
  useEffect(() => void loadActivity(order), [loadActivity, order])
  return (
    <div className="activity-grid" data-count={order.length} ref={setGrid}>
      {order.map((name) => (
        <ActivityPane key={name} name={name} writer={writer} observers={observers} />
      ))}
    </div>
  )
}

/** A pane, and its text: one agent's, written by the grid's writer as the observers see it. */
interface PaneProps {
  readonly name: string
  readonly writer: PaneTextWriter
  readonly observers: PaneObservers | null
}

const ActivityPane = memo(function ActivityPane({ name, writer, observers }: PaneProps) {
  const agent = useAppStore((state) => own(state.agents, name))
  const tool = useAppStore((state) => currentTool(own(state.live, name)?.tools))
  const select = useAppStore((state) => state.select)
  const [pane, setPane] = useState<HTMLElement | null>(null)
  useEffect(
    () => (pane === null ? undefined : observers?.observeView(name, pane)),
    [observers, name, pane],
  )
  if (agent === undefined) return null
  return (
    <section
      className={`activity-pane pane-${agent.status}`}
      data-testid={`activity-pane-${name}`}
      aria-label={`${name} activity`}
      ref={setPane}
    >
      <header className="pane-header">
        <button type="button" className="pane-title" onClick={() => select(name, 'conversation')}>
          <span className="pane-name">{name}</span>
          <span className="pane-role">{agent.role}</span>
        </button>
        <StatusBadge
          name={`${name}-pane`}
          status={agent.status}
          cause={agent.statusCause}
          reason={agent.statusReason}
        />
      </header>
      {tool ? (
        <div
          className={`pane-tool pane-phase-${tool.phase}${tool.isError ? ' pane-tool-error' : ''}`}
        >
          <span className="pane-tool-name" title={tool.name}>
            {toolTitle(tool.name).name}
          </span>
          <span className="pane-tool-input">{summarizeInput(tool.input)}</span>
          <span className="pane-tool-state">
            {tool.phase === 'finished'
              ? tool.isError
                ? errorLabel(tool)
                : tool.output === null
                  ? 'no result'
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
        <p className="pane-failure">{agent.failure.message}</p>
      ) : (agent.status === 'waiting' || agent.status === 'stalled') && agent.statusReason ? (
        <p className="pane-reason">{pauseReason(agent) ?? agent.statusReason}</p>
      ) : null}
      <PaneText name={name} writer={writer} observers={observers} />
      <footer className="pane-footer">
        <PaneSpend agent={agent} />
        {agent.pending > 0 ? (
          <span className="unread-badge small">{agent.pending} unread</span>
        ) : null}
      </footer>
    </section>
  )
})

/**
 * The pane's streaming text, a component of its own: the writer's updates (several a second
 * per streaming agent) render the text alone, not the pane's header and footer.
 */
const PaneText = memo(function PaneText({ name, writer, observers }: PaneProps) {
  const [shown, setShown] = useState<PaneShown>({ text: '', streaming: false })
  // A transition: React renders the few panes of a write in slices and lets the page handle
  // what came in meanwhile, rather than parsing all their Markdown in one long task.
  useEffect(
    () => writer.attach(name, (next) => startTransition(() => setShown(next))),
    [writer, name],
  )
  const [box, setBox] = useState<HTMLDivElement | null>(null)
  useEffect(
    () => (box === null ? undefined : observers?.observeSize(name, box)),
    [observers, name, box],
  )
  return (
    <div
      ref={setBox}
      className={`pane-text${shown.text.length === 0 ? ' is-empty' : ''}${shown.streaming ? ' is-streaming' : ''}`}
      data-testid="pane-text"
    >
      <div className="pane-text-lines">
        {shown.text.length === 0 ? NOTHING_STREAMED : <Markdown text={shown.text} variant="pane" />}
      </div>
    </div>
  )
})

/** The pane's tokens (with the cached share) and cost. */
function PaneSpend({ agent }: { readonly agent: AgentState }) {
  const cost = useCost(agent.usageByModel)
  return (
    <span title={describeSpend(agent.usage, cost)} data-testid="pane-spend">
      {formatSpendFull(agent.usage, cost)}
    </span>
  )
}

function currentTool(tools: readonly LiveTool[] | undefined): LiveTool | null {
  if (tools === undefined || tools.length === 0) return null
  const active = tools.filter((tool) => tool.phase !== 'finished')
  return active[active.length - 1] ?? tools[tools.length - 1] ?? null
}

/** A failed command says how it ended (stopped, exit 1, timed out), as its transcript card does. */
function errorLabel(tool: LiveTool): string {
  if (tool.name !== 'bash') return 'error'
  return bashOutcome({ state: 'failed', output: tool.output }).end?.label ?? 'error'
}
