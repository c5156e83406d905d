import { memo } from 'react'
import { assertNever } from '../../../shared/errors'
import { USER } from '../../../shared/names'
import type { InjectedMessage } from '../../../shared/transcript'
import { isUndoNotice } from '../../../shared/undo'
import { formatCount, formatSeconds, isoFromSeconds, senderName } from '../../ui/format'
import { LongText } from '../../ui/LongText'
import { CopyButton } from '../../ui/markdown/CopyButton'
import { Markdown } from '../../ui/markdown/Markdown'
import type { Row } from './rows'
import { ToolCard } from './ToolCard'
import type { TurnSpend } from './turn-spend'
import { TurnSpendView } from './TurnSpendView'
import { UndoRecordRow } from '../../undo/UndoRecordRow'

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
            <CopyButton text={row.text} label="Copy message" />
          </div>
          <LongText className="turn-text" text={row.text} />
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
            {row.interrupted === true ? (
              <span
                className="live-chip interrupted-chip"
                title="You stopped this reply while it streamed: this is what came before the stop"
              >
                stopped
              </span>
            ) : null}
            {row.live ? null : <CopyButton text={row.text} label="Copy message" />}
          </div>
          {/* The raw text, for the desktop's right-click "Copy message". */}
          <div data-copy-message={row.text}>
            <Markdown text={row.text} />
          </div>
        </div>
      )
    case 'tool':
      return <ToolCard call={row.call} />
    case 'thinking':
      return <ThinkingRow text={row.text} redacted={row.redacted} />
    case 'status':
      return (
        <div className={row.status === 'error' ? 'status-line status-line-error' : 'status-line'}>
          <span>{row.status === 'error' ? 'Error' : row.status}</span>
          <span className="status-line-reason">{row.reason}</span>
        </div>
      )
    case 'compaction':
      return <CompactionMarker row={row} />
    case 'undo':
      return <UndoRecordRow agent={agent} record={row.record} redone={row.redone} />
    default:
      return assertNever(row, 'row')
  }
})

/**
 * Where the conversation was compacted: the rows above stay for the person, the model saw the
 * summary (behind the disclosure) in their place from here on.
 */
function CompactionMarker({ row }: { readonly row: Extract<Row, { kind: 'compaction' }> }) {
  return (
    <details className="compaction-marker" data-testid="compaction-marker">
      <summary>
        <span className="compaction-title">Compacted here</span>
        <span className="compaction-figures">
          {formatCount(row.tokensBefore)} → {formatCount(row.tokensAfter)} tokens · window{' '}
          {formatCount(row.window)}
        </span>
      </summary>
      <div className="compaction-body">
        <p className="compaction-note">
          From here on the model saw its identity block and this summary in place of the records up
          to #{row.throughSeq}.
        </p>
        <div className="compaction-summary" data-copy-message={row.summary}>
          {row.summary}
        </div>
        <pre className="compaction-identity" aria-label="Identity block">
          {row.identity}
        </pre>
      </div>
    </details>
  )
}

/**
 * The model's thinking, collapsed: a disclosure that opens on a click. Redacted thinking (the
 * provider encrypted it) has nothing to open and says so.
 */
function ThinkingRow({ text, redacted }: { readonly text: string; readonly redacted: boolean }) {
  if (redacted)
    return (
      <div className="thinking thinking-redacted" title="The provider encrypted this thinking">
        <span className="thinking-label">Thinking</span>
        <span className="thinking-note">redacted</span>
      </div>
    )
  return (
    <details className="thinking">
      <summary>
        <span className="thinking-label">Thinking</span>
      </summary>
      <div className="thinking-text" data-copy-message={text}>
        {text}
      </div>
    </details>
  )
}

function InjectedCard({ message }: { readonly message: InjectedMessage }) {
  return (
    <div className={`injected injected-${message.type}`}>
      <div className="injected-meta">
        <span className="injected-from">From {senderName(message.from)}:</span>
        {message.type !== 'message' ? (
          <span className="type-chip">{message.type.replace(/_/g, ' ')}</span>
        ) : null}
        {isUndoNotice(message) ? (
          <span className="type-chip" title="What an undo of this agent's work told it">
            undo notice
          </span>
        ) : null}
        <time className="turn-time" dateTime={isoFromSeconds(message.timestamp)}>
          {formatSeconds(message.timestamp)}
        </time>
      </div>
      <LongText className="injected-content" text={message.content} />
    </div>
  )
}
