import { memo, useMemo, useState } from 'react'
import { assertNever } from '../../../shared/errors'
import { own } from '../../../shared/own'
import { useAppStore } from '../../store/context'
import { summarizeInput, type ToolCall } from './rows'
import { useScrollHold } from './scroll-hold'
import { RawBody, ToolBody } from './ToolBody'
import { toolTitle, toolView, type ToolView } from './tool-views'

function stateLabel(state: ToolCall['state']): string {
  switch (state) {
    case 'streaming':
      return 'writing input…'
    case 'running':
      return 'running…'
    case 'done':
      return 'done'
    case 'failed':
      return 'error'
    case 'unanswered':
      return 'no result'
    default:
      return assertNever(state, 'tool call state')
  }
}

/** The header's state: a bash call says how it exited ("exit 2"), the others their state. */
function StateChip({ call, view }: { readonly call: ToolCall; readonly view: ToolView }) {
  const active = call.state === 'streaming' || call.state === 'running'
  if (view.kind === 'bash' && view.end !== null)
    return (
      <span
        className={`tool-state tool-exit ${view.end.ok ? 'tool-exit-ok' : 'tool-exit-failed'}`}
        data-testid="exit-code"
      >
        {view.end.label}
      </span>
    )
  return (
    <span className={`tool-state tool-state-${call.state}`}>
      {active ? <span className="spinner" aria-hidden="true" /> : null}
      {stateLabel(call.state)}
    </span>
  )
}

/**
 * A tool call as a collapsible card: its name and a one-line summary, then the tool's own view
 * (a file, a diff, a terminal, a message); the raw input and output behind "Raw".
 */
export const ToolCard = memo(function ToolCard({ call }: { readonly call: ToolCall }) {
  const remembered = useAppStore((state) => own(state.expandedTools, call.id))
  const setExpanded = useAppStore((state) => state.setToolExpanded)
  const hold = useScrollHold()
  const [raw, setRaw] = useState(false)
  const view = useMemo(() => toolView(call), [call])
  const title = toolTitle(call.name)
  const expanded =
    remembered ??
    (call.state === 'streaming' || call.state === 'running' || call.state === 'failed')
  return (
    <div
      className={`tool-card tool-${call.state} tool-view-${view.kind}`}
      data-testid="tool-card"
      data-tool={call.name}
    >
      <button
        type="button"
        className="tool-header"
        aria-expanded={expanded}
        onClick={() => {
          hold()
          setExpanded(call.id, !expanded)
        }}
      >
        <span className="tool-chevron" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        <span className="tool-name">{title.name}</span>
        {title.server === null ? null : <span className="tool-server">{title.server}</span>}
        <span className="tool-summary">{summarizeInput(call.input)}</span>
        <StateChip call={call} view={view} />
      </button>
      {expanded ? (
        <div className="tool-body">
          <div className="tool-body-bar">
            <button
              type="button"
              className="link-button tool-raw-toggle"
              aria-pressed={raw}
              onClick={() => {
                hold()
                setRaw(!raw)
              }}
            >
              Raw
            </button>
          </div>
          {raw ? <RawBody call={call} /> : <ToolBody call={call} view={view} />}
        </div>
      ) : null}
    </div>
  )
})
