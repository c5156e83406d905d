import { memo, useEffect, useRef } from 'react'
import type { InboxEntryView } from '../../shared/contract'
import { useAppStore } from '../store/context'
import { positionKey } from '../store/pages'
import { Composer } from '../chat/Composer'
import { LongText } from '../ui/LongText'
import { formatSeconds, isoFromSeconds, senderName } from '../ui/format'
import { own } from '../../shared/own'

/** An agent's inbox, line by line, with each message's delivery state; and a way to write. */
export function InboxView({ name }: { readonly name: string }) {
  return (
    <div className="inbox-view">
      <InboxLines name={name} />
      <InboxComposer name={name} />
    </div>
  )
}

/** The summary and the lines: what re-renders when the inbox changes (the composer does not). */
function InboxLines({ name }: { readonly name: string }) {
  const inbox = useAppStore((state) => own(state.inboxes, name))
  const loadInbox = useAppStore((state) => state.loadInbox)
  const loadMore = useAppStore((state) => state.loadMoreInbox)
  const status = inbox?.status
  const stale = inbox?.stale === true

  useEffect(() => {
    if (status === undefined || stale) void loadInbox(name)
  }, [name, status, stale, loadInbox])

  const entries = inbox?.entries ?? noEntries
  const counts = countStates(entries)
  const revealed = useRevealedEntry(name)
  return (
    <>
      <div className="inbox-summary">
        <span>
          <strong>{entries.length}</strong> {entries.length === 1 ? 'line' : 'lines'} loaded
        </span>
        <span className="state-pill state-pending">{counts.pending} pending</span>
        <span className="state-pill state-delivered">{counts.delivered} delivered</span>
        {counts.rejected > 0 ? (
          <span className="state-pill state-rejected">{counts.rejected} rejected</span>
        ) : null}
        <span className="muted small inbox-path">.team/inbox/{name}.jsonl</span>
      </div>
      <div className="inbox-list" aria-live="polite">
        {status === 'loading' && entries.length === 0 ? (
          <p className="empty-state muted">Reading the inbox…</p>
        ) : null}
        {status === 'failed' ? (
          <div className="empty-state">
            <p className="inline-error" role="alert">
              Could not read the inbox: {inbox?.error}
            </p>
            <button type="button" className="button" onClick={() => void loadInbox(name)}>
              Try again
            </button>
          </div>
        ) : null}
        {status === 'ready' && entries.length === 0 ? (
          <p className="empty-state muted">
            No messages yet. Anything appended to .team/inbox/{name}.jsonl shows up here.
          </p>
        ) : null}
        {entries.map((entry) => (
          <InboxEntry
            key={positionKey(entry.position)}
            entry={entry}
            revealed={revealed === positionKey(entry.position)}
          />
        ))}
        {inbox?.next ? (
          <button
            type="button"
            className="button load-more"
            disabled={inbox.loadingMore}
            onClick={() => void loadMore(name)}
          >
            {inbox.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        ) : null}
        {inbox?.error && status === 'ready' ? (
          <p className="inline-error" role="alert">
            {inbox.error}
          </p>
        ) : null}
      </div>
    </>
  )
}

const noEntries: readonly InboxEntryView[] = []

/**
 * A search hit opened in this inbox: later pages are read until its line is loaded, then it is
 * scrolled into view once. Answers the line's key, to mark it.
 */
function useRevealedEntry(name: string): string | null {
  const reveal = useAppStore((state) => state.reveal)
  const inbox = useAppStore((state) => own(state.inboxes, name))
  const loadMore = useAppStore((state) => state.loadMoreInbox)
  const key =
    reveal !== null && reveal.agent === name && reveal.place.source === 'inbox'
      ? positionKey(reveal.place.position)
      : null
  const loaded =
    key !== null && inbox?.entries.some((entry) => positionKey(entry.position) === key) === true
  const canLoadMore = inbox?.next != null && inbox.loadingMore !== true
  useEffect(() => {
    if (key !== null && !loaded && canLoadMore) void loadMore(name)
  }, [key, loaded, canLoadMore, loadMore, name])
  const scrolledFor = useRef(0)
  const request = reveal?.request ?? 0
  useEffect(() => {
    if (!loaded || key === null || scrolledFor.current === request) return
    scrolledFor.current = request
    document.querySelector(`[data-position="${key}"]`)?.scrollIntoView({ block: 'center' })
  }, [loaded, key, request])
  return loaded ? key : null
}

function InboxComposer({ name }: { readonly name: string }) {
  const sendMessage = useAppStore((state) => state.sendMessage)
  const broadcast = useAppStore((state) => state.broadcast)
  const order = useAppStore((state) => state.order)
  // Only a plain message: the protocol types (shutdown, plan approval) are the agents' own
  // handshakes, which the person answers through the roster's and plan cards' buttons.
  return (
    <Composer
      label={`Message ${name}`}
      placeholder={`Write to ${name}… (Enter sends, Shift+Enter adds a line)`}
      primary={{
        label: `Send to ${name}`,
        send: async (content) => void (await sendMessage({ to: name, content })),
      }}
      secondary={{
        label: 'Broadcast to team',
        send: async (content) => ({ notice: reached((await broadcast(content)).count) }),
        confirm: {
          title: 'Broadcast to the team?',
          description: `Your message goes to the inbox of every agent (${order.join(', ')}); each one wakes and reads it.`,
          label: 'Broadcast',
        },
      }}
      takesFocusRequests
    />
  )
}

/** What a broadcast did, in words. */
function reached(count: number): string {
  if (count === 0) return 'The broadcast reached nobody: the team has no other agent.'
  return `Broadcast sent to ${count} ${count === 1 ? 'agent' : 'agents'}.`
}

function countStates(entries: readonly InboxEntryView[]): Record<InboxEntryView['state'], number> {
  const counts = { pending: 0, delivered: 0, rejected: 0 }
  for (const entry of entries) counts[entry.state]++
  return counts
}

/**
 * Memoized: a refresh keeps the objects of entries that did not change (see inboxPageLoaded),
 * so only new or changed lines render again, not the whole list.
 */
const InboxEntry = memo(function InboxEntry({
  entry,
  revealed,
}: {
  readonly entry: InboxEntryView
  readonly revealed: boolean
}) {
  return (
    <article
      className={`inbox-entry inbox-${entry.state}${revealed ? ' is-revealed' : ''}`}
      data-testid="inbox-entry"
      data-state={entry.state}
      data-position={positionKey(entry.position)}
      data-revealed={revealed ? 'true' : undefined}
    >
      <header className="inbox-entry-header">
        <span className="inbox-from">
          {entry.from === null ? 'unknown sender' : senderName(entry.from)}
        </span>
        {entry.type ? <span className="type-chip">{entry.type.replace(/_/g, ' ')}</span> : null}
        <time
          className="turn-time"
          dateTime={entry.timestamp === null ? undefined : isoFromSeconds(entry.timestamp)}
        >
          {formatSeconds(entry.timestamp)}
        </time>
        <span className={`state-pill state-${entry.state}`}>{entry.state}</span>
      </header>
      {entry.content === null ? (
        <div className="inbox-content muted">(an unreadable line)</div>
      ) : (
        <LongText className="inbox-content" text={entry.content} />
      )}
      {entry.state === 'rejected' ? (
        <p className="inbox-reason">Rejected: {entry.reason ?? 'no reason given'}</p>
      ) : null}
    </article>
  )
})
