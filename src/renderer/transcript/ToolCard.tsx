import { memo } from 'react'
import { assertNever } from '../../shared/errors'
import { formatNumber } from '../components/format'
import { useAppStore } from '../store/context'
import { summarizeInput, type ToolCall } from './rows'
import { own } from '../../shared/own'

/** The most output shown before the card says how much more there is. */
const SHOWN_OUTPUT = 20_000

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

/** A tool call as a collapsible card: name and input summary, then input and output. */
export const ToolCard = memo(function ToolCard({ call }: { readonly call: ToolCall }) {
  const remembered = useAppStore((state) => own(state.expandedTools, call.id))
  const setExpanded = useAppStore((state) => state.setToolExpanded)
  const active = call.state === 'streaming' || call.state === 'running'
  const expanded = remembered ?? (active || call.state === 'failed')
  const output = call.output ?? ''
  return (
    <div className={`tool-card tool-${call.state}`} data-testid="tool-card" data-tool={call.name}>
      <button
        type="button"
        className="tool-header"
        aria-expanded={expanded}
        onClick={() => setExpanded(call.id, !expanded)}
      >
        <span className="tool-chevron" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        <span className="tool-name">{call.name}</span>
        <span className="tool-summary">{summarizeInput(call.input)}</span>
        <span className={`tool-state tool-state-${call.state}`}>
          {active ? <span className="spinner" aria-hidden="true" /> : null}
          {stateLabel(call.state)}
        </span>
      </button>
      {expanded ? (
        <div className="tool-body">
          {call.input.length > 0 ? (
            <section>
              <h4 className="tool-section-title">Input</h4>
              <pre className="tool-pre">{call.input}</pre>
            </section>
          ) : null}
          {call.output !== null ? (
            <section>
              <h4 className="tool-section-title">{call.state === 'failed' ? 'Error' : 'Output'}</h4>
              <pre className={call.state === 'failed' ? 'tool-pre tool-pre-error' : 'tool-pre'}>
                {output.length > SHOWN_OUTPUT ? output.slice(0, SHOWN_OUTPUT) : output || '(empty)'}
              </pre>
              {output.length > SHOWN_OUTPUT ? (
                <p className="muted small">
                  {formatNumber(output.length - SHOWN_OUTPUT)} more characters not shown.
                </p>
              ) : null}
            </section>
          ) : null}
        </div>
      ) : null}
    </div>
  )
})
