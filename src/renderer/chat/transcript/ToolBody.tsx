import { memo } from 'react'
import { assertNever } from '../../../shared/errors'
import { formatNumber } from '../../ui/format'
import { CodeBlock } from '../../ui/markdown/CodeBlock'
import { Markdown } from '../../ui/markdown/Markdown'
import { DiffView } from './DiffView'
import type { ToolCall } from './rows'
import type { ToolView } from './tool-views'

/** The most output shown before the card says how much more there is. */
const SHOWN_OUTPUT = 20_000

/** A tool's output (or error) as plain text, cut past SHOWN_OUTPUT characters. */
function Output({
  call,
  text,
  title,
}: {
  readonly call: ToolCall
  readonly text: string
  readonly title?: string
}) {
  const failed = call.state === 'failed'
  return (
    <section>
      <h4 className="tool-section-title">{title ?? (failed ? 'Error' : 'Output')}</h4>
      <pre className={failed ? 'tool-pre tool-pre-error' : 'tool-pre'}>
        {text.length > SHOWN_OUTPUT ? text.slice(0, SHOWN_OUTPUT) : text || '(empty)'}
      </pre>
      {text.length > SHOWN_OUTPUT ? (
        <p className="muted small">
          {formatNumber(text.length - SHOWN_OUTPUT)} more characters not shown.
        </p>
      ) : null}
    </section>
  )
}

/** A one-line result ("Wrote 120 bytes to a.ts"), or the whole error when the call failed. */
function Result({ call }: { readonly call: ToolCall }) {
  if (call.output === null) return null
  if (call.state === 'failed') return <Output call={call} text={call.output} />
  return <p className="tool-result-line">{call.output}</p>
}

/** The card's body as the tool's own view: a file, a diff, a terminal, a message. */
export const ToolBody = memo(function ToolBody({
  call,
  view,
}: {
  readonly call: ToolCall
  readonly view: ToolView
}) {
  switch (view.kind) {
    case 'write':
      return (
        <>
          <CodeBlock code={view.content} language={view.language} title={view.path} />
          <Result call={call} />
        </>
      )
    case 'edit':
      return (
        <>
          <DiffView oldText={view.oldText} newText={view.newText} language={view.language} />
          <Result call={call} />
        </>
      )
    case 'bash':
      return (
        <div className="terminal" data-testid="terminal">
          <div className="terminal-command">
            <span className="terminal-prompt" aria-hidden="true">
              $
            </span>
            {view.command}
          </div>
          {view.output === null ? null : (
            <pre className="terminal-output">
              {view.output.length > SHOWN_OUTPUT
                ? `${view.output.slice(0, SHOWN_OUTPUT)}\n… ${formatNumber(view.output.length - SHOWN_OUTPUT)} more characters not shown`
                : view.output}
            </pre>
          )}
        </div>
      )
    case 'message':
      return (
        <>
          <div className="tool-message" data-copy-message={view.content}>
            <div className="tool-message-to">
              To {view.to === null ? 'every teammate' : view.to}
            </div>
            <Markdown text={view.content} />
          </div>
          <Result call={call} />
        </>
      )
    case 'generic':
      return (
        <>
          {call.input.length > 0 ? (
            <section>
              <h4 className="tool-section-title">Input</h4>
              <CodeBlock code={call.input} language={call.state === 'streaming' ? null : 'json'} />
            </section>
          ) : null}
          {call.output !== null ? <Output call={call} text={call.output} /> : null}
        </>
      )
    default:
      return assertNever(view, 'tool view')
  }
})

/** The call as it was sent and answered: the input JSON and the output text. */
export function RawBody({ call }: { readonly call: ToolCall }) {
  return (
    <>
      {call.input.length > 0 ? (
        <section>
          <h4 className="tool-section-title">Input</h4>
          <pre className="tool-pre">{call.input}</pre>
        </section>
      ) : null}
      {call.output !== null ? <Output call={call} text={call.output} /> : null}
    </>
  )
}
