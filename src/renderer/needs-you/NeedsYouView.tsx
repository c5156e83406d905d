import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { LEAD } from '../../shared/names'
import { decisionWords, type NeedsYouEntry } from '../../shared/needs-you'
import { useAppStore } from '../store/context'
import { kindLabel, pendingEntries } from '../store/needs-you'
import { own } from '../../shared/own'
import { InlineError } from '../ui/Dialog'
import { PlanCard } from '../chat/PlanCard'
import { formatSeconds, isoFromSeconds } from '../ui/format'
import { useCommand } from '../ui/useCommand'
import { useTimelineFocus } from '../timeline/useTimelineFocus'

/**
 * Everything that waits on the person, across all agents: newest first, grouped by agent.
 * Keyboard triage: j/k move, a approves (or answers), d denies with a reason, Enter opens.
 */
export function NeedsYouView() {
  const queue = useAppStore((state) => state.needsYou)
  const entries = useMemo(() => pendingEntries(queue), [queue])
  const [cursor, setCursor] = useState(0)
  const [opened, setOpened] = useState<string | null>(null)
  const [composing, setComposing] = useState<{ id: string; mode: 'deny' | 'answer' } | null>(null)
  const list = useRef<HTMLDivElement>(null)
  const answerNeedsYou = useAppStore((state) => state.answerNeedsYou)
  const answer = useCommand(answerNeedsYou)
  const current = entries[Math.min(cursor, entries.length - 1)]
  useTimelineFocus('needs-you', (id) => {
    const at = entries.findIndex((entry) => entry.id === id)
    if (at < 0) return
    setCursor(at)
    setOpened(id)
  })

  useEffect(() => list.current?.focus(), [])
  useEffect(() => {
    if (cursor >= entries.length && entries.length > 0) setCursor(entries.length - 1)
  }, [cursor, entries.length])

  const approve = (entry: NeedsYouEntry, always = false): void => {
    if (entry.kind === 'question') {
      setComposing({ id: entry.id, mode: 'answer' })
      return
    }
    void answer.run({ id: entry.id, decision: always ? 'approve-always' : 'approve' })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.target !== event.currentTarget) return // typing a reason or an answer
    if (event.ctrlKey || event.metaKey || event.altKey || current === undefined) return
    const key = event.key
    if (key === 'j' || key === 'ArrowDown') setCursor((at) => Math.min(at + 1, entries.length - 1))
    else if (key === 'k' || key === 'ArrowUp') setCursor((at) => Math.max(at - 1, 0))
    else if (key === 'a') approve(current)
    else if (key === 'd') setComposing({ id: current.id, mode: 'deny' })
    else if (key === 'Enter') setOpened((open) => (open === current.id ? null : current.id))
    else return
    event.preventDefault()
  }

  if (entries.length === 0)
    return (
      <div className="needs-you needs-you-empty" data-testid="needs-you">
        <p className="muted">
          Nothing needs you. Approvals, questions, plans and pauses appear here.
        </p>
      </div>
    )
  let agent: string | null = null
  return (
    <div
      className="needs-you"
      data-testid="needs-you"
      ref={list}
      tabIndex={0}
      role="listbox"
      aria-label="Needs you: j/k move, a approve, d deny, Enter open"
      aria-activedescendant={current ? `needs-you-${current.id}` : undefined}
      onKeyDown={onKeyDown}
    >
      <p className="needs-you-keys muted">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve · <kbd>d</kbd> deny · <kbd>Enter</kbd>{' '}
        open
      </p>
      {entries.map((entry) => {
        const header =
          entry.agent !== agent ? (
            <h2 className="needs-you-agent" key={`agent-${entry.agent}`}>
              {entry.agent === LEAD ? 'Lead' : entry.agent}
            </h2>
          ) : null
        agent = entry.agent
        return [
          header,
          <EntryCard
            key={entry.id}
            entry={entry}
            selected={entry.id === current?.id}
            open={opened === entry.id}
            composing={composing?.id === entry.id ? composing.mode : null}
            pending={answer.pending}
            onSelect={() => setCursor(entries.indexOf(entry))}
            onApprove={(always) => approve(entry, always)}
            onCompose={(mode) => setComposing({ id: entry.id, mode })}
            onSubmit={(mode, text) => {
              setComposing(null)
              list.current?.focus()
              void answer.run({ id: entry.id, decision: mode, text })
            }}
            onCancel={() => {
              setComposing(null)
              list.current?.focus()
            }}
          />,
        ]
      })}
      <InlineError error={answer.error} />
    </div>
  )
}

interface EntryCardProps {
  readonly entry: NeedsYouEntry
  readonly selected: boolean
  readonly open: boolean
  readonly composing: 'deny' | 'answer' | null
  readonly pending: boolean
  readonly onSelect: () => void
  readonly onApprove: (always: boolean) => void
  readonly onCompose: (mode: 'deny' | 'answer') => void
  readonly onSubmit: (mode: 'deny' | 'answer', text: string) => void
  readonly onCancel: () => void
}

function EntryCard(props: EntryCardProps) {
  const { entry } = props
  const select = useAppStore((state) => state.select)
  const openDialog = useAppStore((state) => state.openDialog)
  const plan = useAppStore((state) =>
    entry.kind === 'plan' && entry.request_id !== null
      ? own(state.protocols, entry.request_id)
      : undefined,
  )
  const words = decisionWords(entry.kind)
  // The command or question is the decision itself: always shown; a long diff or plan on Enter.
  const short = entry.kind === 'tool' || entry.kind === 'question'
  const detail = props.open || short ? entry.detail : firstLines(entry.detail, 3)
  return (
    <article
      id={`needs-you-${entry.id}`}
      role="option"
      aria-selected={props.selected}
      className={props.selected ? 'needs-you-entry is-selected' : 'needs-you-entry'}
      data-testid={`needs-you-${entry.id}`}
      onClick={props.onSelect}
    >
      <header className="needs-you-entry-header">
        <span className={`needs-you-kind needs-you-kind-${entry.kind}`}>
          {kindLabel(entry.kind)}
        </span>
        <span className="needs-you-summary">{entry.summary}</span>
        <time className="muted" dateTime={isoFromSeconds(entry.created_at)}>
          {formatSeconds(entry.created_at)}
        </time>
      </header>
      {plan !== undefined ? (
        <PlanCard request={plan} />
      ) : detail !== '' ? (
        <pre className={props.open ? 'needs-you-detail is-open' : 'needs-you-detail'}>{detail}</pre>
      ) : null}
      {plan !== undefined ? null : props.composing !== null ? (
        <Compose mode={props.composing} onSubmit={props.onSubmit} onCancel={props.onCancel} />
      ) : (
        <div className="needs-you-actions">
          <button
            type="button"
            className="button button-primary button-small"
            disabled={props.pending}
            onClick={() => props.onApprove(false)}
          >
            {words.approve}
          </button>
          {entry.kind === 'tool' && entry.pattern !== null ? (
            <button
              type="button"
              className="button button-small"
              disabled={props.pending}
              title={`Approve from now on every call of ${entry.agent} that matches ${entry.pattern}`}
              onClick={() => props.onApprove(true)}
            >
              Always: {entry.pattern}
            </button>
          ) : null}
          <button
            type="button"
            className="button button-small"
            disabled={props.pending}
            onClick={() => props.onCompose('deny')}
          >
            {words.deny}
          </button>
          {entry.kind === 'pause' && /\bbudget\b/.test(entry.detail) ? (
            <button
              type="button"
              className="button button-small"
              onClick={() => openDialog({ kind: 'budget', name: entry.agent })}
            >
              Set budget…
            </button>
          ) : null}
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => select(entry.agent, 'conversation')}
          >
            Go to {entry.agent === LEAD ? 'the lead' : entry.agent}
          </button>
        </div>
      )}
    </article>
  )
}

/** A reason for a denial (it goes back to the agent), or the answer to a question. */
function Compose({
  mode,
  onSubmit,
  onCancel,
}: {
  readonly mode: 'deny' | 'answer'
  readonly onSubmit: (mode: 'deny' | 'answer', text: string) => void
  readonly onCancel: () => void
}) {
  const [text, setText] = useState('')
  const label = mode === 'deny' ? 'Reason (the agent reads it)' : 'Your answer'
  const submit = (): void => {
    if (text.trim() !== '') onSubmit(mode, text.trim())
  }
  return (
    <form
      className="needs-you-compose"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <input
        aria-label={label}
        placeholder={label}
        value={text}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            onCancel()
          }
        }}
      />
      <button type="submit" className="button button-small" disabled={text.trim() === ''}>
        {mode === 'deny' ? 'Deny' : 'Answer'}
      </button>
      <button type="button" className="button button-ghost button-small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  )
}

function firstLines(text: string, count: number): string {
  const lines = text.split('\n')
  return lines.length > count ? `${lines.slice(0, count).join('\n')}\n…` : text
}
