import { useEffect, useRef } from 'react'
import { assertNever } from '../../shared/errors'
import { isTransient, TRANSIENT_NOTICE_MS } from '../store/notices'
import type { Notice } from '../store/state'
import { useAppStore } from '../store/context'
import type { ConnectionStatus } from '../store/ui'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'

/** Problems for the whole window: the connection, the roster file, team alerts, failed commands. */
export function Banners() {
  return (
    <>
      <div className="banners">
        <ConnectionBanner />
        <RosterProblemBanner />
        <TeamAlertBanner />
        <TrustBanner />
      </div>
      <Notices />
    </>
  )
}

function connectionText(connection: ConnectionStatus): string | null {
  switch (connection) {
    case 'connected':
      return null
    case 'reconnecting':
      return 'The connection to the team was lost. Reconnecting…'
    case 'disconnected':
      return 'Not connected to the team. Reload the page once the server runs again.'
    case 'expired':
      // The whole window says it (ExpiredAddress), in place of the team.
      return null
    default:
      return assertNever(connection, 'connection')
  }
}

/** After "Not now": the workspace stays untrusted, and says so until the person decides. */
function TrustBanner() {
  const untrusted = useAppStore((state) => state.trust !== null && !state.trust.trusted)
  const declined = useAppStore((state) => state.trust?.declined === true)
  const openDialog = useAppStore((state) => state.openDialog)
  if (!untrusted || !declined) return null
  return (
    <div className="banner banner-warning" role="status">
      <div className="banner-text">
        <strong>This workspace is not trusted.</strong> Its MCP servers, allowed hosts, “approve
        always” rules and custom profiles are off, and agents wake only by your own message.
      </div>
      <button
        type="button"
        className="button button-small"
        onClick={() => openDialog({ kind: 'trust' })}
      >
        Review…
      </button>
    </div>
  )
}

function ConnectionBanner() {
  const connection = useAppStore((state) => state.connection)
  const text = connectionText(connection)
  if (text === null) return null
  return (
    <div className="banner banner-warning" role="status">
      <strong>{text}</strong>
    </div>
  )
}

function RosterProblemBanner() {
  const problem = useAppStore((state) => state.rosterProblem)
  const resetRoster = useAppStore((state) => state.resetRoster)
  const reset = useCommand(resetRoster)
  if (problem === null) return null
  return (
    <div className="banner banner-error" role="alert">
      <div className="banner-text">
        <strong>The roster file cannot be read</strong>
        <code className="banner-location">
          {problem.file}:{problem.line}:{problem.column}
        </code>
        <span className="banner-message">{problem.message}</span>
        <span className="banner-hint">
          Fix the file (the team picks the change up), or reset it: the broken file is kept aside.
        </span>
        <InlineError error={reset.error} />
      </div>
      <button
        type="button"
        className="button"
        disabled={reset.pending}
        onClick={() => void reset.run()}
      >
        {reset.pending ? 'Resetting…' : 'Reset roster'}
      </button>
    </div>
  )
}

/** One banner for the whole team (a refused key), not one per agent that ran into it. */
function TeamAlertBanner() {
  const alert = useAppStore((state) => state.alert)
  const openDialog = useAppStore((state) => state.openDialog)
  if (alert === null) return null
  return (
    <div className="banner banner-error banner-team" role="alert" data-testid="team-alert">
      <div className="banner-text">
        <strong>{teamAlertTitle(alert.code)}</strong>
        <span className="banner-message">{alert.message}</span>
        <span className="banner-hint">
          Agents that ran into it wait; they go on by themselves once the settings work.
        </span>
      </div>
      <button
        type="button"
        className="button button-primary"
        onClick={() => openDialog({ kind: 'settings' })}
      >
        Open Settings
      </button>
    </div>
  )
}

function teamAlertTitle(code: string): string {
  return code === 'auth'
    ? 'The team cannot work: the API key was refused'
    : 'The team cannot reach its model'
}

/**
 * The one place transient news goes (failed commands, answers to requests, rejected lines): a
 * stack in the corner that never pushes the view down. Information dismisses itself; warnings
 * and errors stay until dismissed; notices of one kind are grouped with a count.
 */
function Notices() {
  const notices = useAppStore((state) => state.notices)
  const dismiss = useAppStore((state) => state.dismissNotice)
  return (
    <section className="notifications" aria-label="Notifications" aria-live="polite">
      {notices.map((notice) => (
        <NoticeCard key={notice.id} notice={notice} onDismiss={() => dismiss(notice.id)} />
      ))}
    </section>
  )
}

function NoticeCard({
  notice,
  onDismiss,
}: {
  readonly notice: Notice
  readonly onDismiss: () => void
}) {
  const transient = isTransient(notice.tone)
  // The latest callback, so that a re-render (a new closure) does not restart the timer.
  const dismissLater = useRef(onDismiss)
  dismissLater.current = onDismiss
  useEffect(() => {
    if (!transient) return
    const timer = setTimeout(() => dismissLater.current(), TRANSIENT_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [notice.id, transient])
  return (
    <div
      className={`notification notification-${notice.tone}`}
      role={notice.tone === 'info' ? 'status' : 'alert'}
    >
      <div className="notification-text">
        <strong>{notice.title}</strong>
        {notice.message ? <span className="notification-message">{notice.message}</span> : null}
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label={`Dismiss: ${notice.title}`}
        onClick={onDismiss}
      >
        ×
      </button>
    </div>
  )
}
