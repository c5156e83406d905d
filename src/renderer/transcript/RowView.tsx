import { memo } from 'react'
import { assertNever } from '../../shared/errors'
import { USER } from '../../shared/names'
import type { InjectedMessage } from '../../shared/transcript'
import { formatSeconds, isoFromSeconds } from '../components/format'
import { Markdown } from '../markdown/Markdown'
import type { Row } from './rows'
import { ToolCard } from './ToolCard'
import type { TurnSpend } from './turn-spend'
import { TurnSpendView } from './TurnSpendView'

/** One row of a conversation: the same rendering for the lead's chat and every transcript. */
export const RowView = memo(function RowView({
  row,
  agent,
  spend,
}: {
  readonly row: Row
  readonly agent: string
  /** For a user row: what answering it cost (the calls it led to). */
  readonly spend?: TurnSpend | undefined
}) {
  switch (row.kind) {
    case 'user':
      return (
        <div className={row.from === USER ? 'turn turn-user' : 'turn turn-task'}>
          <div className="turn-meta">
            <span className="turn-author">
              {row.from === USER ? 'You' : `Task from ${row.from}`}
            </span>
            <time className="turn-time" dateTime={isoFromSeconds(row.atSeconds)}>
              {formatSeconds(row.atSeconds)}
            </time>
            {spend === undefined ? null : <TurnSpendView spend={spend} />}
          </div>
          <div className="turn-text" data-copy-message={row.text}>
            {row.text}
          </div>
        </div>
      )
    case 'inbox':
      return (
        <div className="inbox-injection" aria-label="Messages from the inbox">
          {row.messages.map((message) => (
            <InjectedCard key={message.id} message={message} />
          ))}
        </div>
      )
    case 'text':
      return (
        <div className={row.live ? 'turn turn-assistant turn-live' : 'turn turn-assistant'}>
          <div className="turn-meta">
            <span className="turn-author">{agent}</span>
            {row.live ? <span className="live-chip">streaming</span> : null}
          </div>
          {/* The raw text, for the desktop's right-click "Copy message". */}
          <div data-copy-message={row.text}>
            <Markdown text={row.text} />
          </div>
        </div>
      )
    case 'tool':
      return <ToolCard call={row.call} />
    case 'status':
      return (
        <div className={row.status === 'error' ? 'status-line status-line-error' : 'status-line'}>
          <span>{row.status === 'error' ? 'Error' : row.status}</span>
          <span className="status-line-reason">{row.reason}</span>
        </div>
      )
    default:
      return assertNever(row, 'row')
  }
})

function InjectedCard({ message }: { readonly message: InjectedMessage }) {
  return (
    <div className={`injected injected-${message.type}`}>
      <div className="injected-meta">
        <span className="injected-from">From {message.from}:</span>
        {message.type !== 'message' ? (
          <span className="type-chip">{message.type.replace(/_/g, ' ')}</span>
        ) : null}
        <time className="turn-time" dateTime={isoFromSeconds(message.timestamp)}>
          {formatSeconds(message.timestamp)}
        </time>
      </div>
      <div className="injected-content" data-copy-message={message.content}>
        {message.content}
      </div>
    </div>
  )
}
