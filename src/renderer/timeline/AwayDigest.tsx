import { useEffect, useRef } from 'react'
import { formatUsd } from '../../shared/cost'
import type { AwayDigest } from '../../shared/timeline'
import { useAppStore } from '../store/context'
import { formatCount, formatSeconds } from '../ui/format'
import { laneLabel } from './timeline-model'

/** Away this long (the window hidden or without focus), the digest is asked for again on return. */
const LONG_AWAY_MS = 15 * 60_000
/** How often a shown window notes that the person sees the team. */
const LOOK_EVERY_MS = 60_000
/** The most lines listed in each part; the rest are counted. */
const MAX_LINES = 5

/**
 * "While you were away": asked for when a team opens and when the window comes back after a
 * long time away; shown when something finished, failed or waits on the person and the person
 * had not looked for a while (`digestInterrupts`). A shown window notes the person's looks.
 */
export function AwayDigestHost() {
  const workspace = useAppStore((state) => state.workspace)
  const checkAwayDigest = useAppStore((state) => state.checkAwayDigest)
  const digest = useAppStore((state) =>
    state.awayDigest.open && state.awayDigest.workspace === state.workspace
      ? state.awayDigest.digest
      : null,
  )
  const noteLook = useAppStore((state) => state.noteLook)
  useEffect(() => {
    if (workspace === null) return
    // The first look at a team is noted at once; later ones as the window stays shown, so that
    // the Timeline view's button still tells what happened since the look before this one.
    void checkAwayDigest().then((digest) => {
      if (digest !== null && (digest.lastLook ?? null) === null) void noteLook()
    })
  }, [workspace, checkAwayDigest, noteLook])
  useReturnAfterLongAway(() => void checkAwayDigest())
  useNoteLooks(workspace !== null, noteLook)
  return digest === null ? null : <AwayDigestPanel digest={digest} />
}

/** While the window is shown, a look every minute and one as it is hidden. */
function useNoteLooks(open: boolean, noteLook: () => Promise<void>): void {
  useEffect(() => {
    if (!open) return
    const look = (): void => {
      if (document.visibilityState === 'visible') void noteLook()
    }
    const timer = window.setInterval(look, LOOK_EVERY_MS)
    const hidden = (): void => {
      if (document.visibilityState === 'hidden') void noteLook()
    }
    document.addEventListener('visibilitychange', hidden)
    return () => {
      window.clearInterval(timer)
      document.removeEventListener('visibilitychange', hidden)
    }
  }, [open, noteLook])
}

function useReturnAfterLongAway(onReturn: () => void): void {
  const callback = useRef(onReturn)
  callback.current = onReturn
  useEffect(() => {
    let awaySince: number | null = null
    const leave = (): void => {
      awaySince ??= Date.now()
    }
    const come = (): void => {
      if (document.visibilityState === 'hidden') return
      const since = awaySince
      awaySince = null
      if (since !== null && Date.now() - since >= LONG_AWAY_MS) callback.current()
    }
    const visibility = (): void => (document.visibilityState === 'hidden' ? leave() : come())
    window.addEventListener('blur', leave)
    window.addEventListener('focus', come)
    document.addEventListener('visibilitychange', visibility)
    return () => {
      window.removeEventListener('blur', leave)
      window.removeEventListener('focus', come)
      document.removeEventListener('visibilitychange', visibility)
    }
  }, [])
}

export function AwayDigestPanel({ digest }: { readonly digest: AwayDigest }) {
  const dismiss = useAppStore((state) => state.dismissAwayDigest)
  const showView = useAppStore((state) => state.showView)
  const showRecord = useAppStore((state) => state.showRecord)
  const entries = Object.values(digest.counts).reduce((sum, count) => sum + count, 0)
  return (
    <section className="away-digest" aria-label="While you were away" data-testid="away-digest">
      <header className="away-digest-header">
        <h2 className="away-digest-title">While you were away</h2>
        <span className="muted small">
          since {formatSeconds(digest.since)} · {entries} {entries === 1 ? 'entry' : 'entries'} ·{' '}
          <span data-testid="away-digest-cost">
            {formatUsd(digest.usd)} · {formatCount(digest.tokens)} tokens
          </span>
        </span>
      </header>
      <div className="away-digest-parts">
        <DigestPart title="Finished" tone="ok" lines={digest.finished} />
        <DigestPart title="Failed" tone="error" lines={digest.failed} />
        <div className="away-digest-part" data-testid="away-digest-waiting">
          <h3 className="away-digest-part-title">
            Waiting for you <span className="muted">{digest.waiting.length}</span>
          </h3>
          {digest.waiting.length === 0 ? (
            <p className="muted small">Nothing.</p>
          ) : (
            <ul>
              {digest.waiting.slice(0, MAX_LINES).map((line) => (
                <li key={line.id}>
                  <button
                    type="button"
                    className="away-digest-link"
                    onClick={() => showRecord({ kind: 'needs-you', id: line.id })}
                  >
                    <strong>{laneLabel(line.agent)}</strong>: {line.summary}
                  </button>
                </li>
              ))}
              <More count={digest.waiting.length} />
            </ul>
          )}
        </div>
      </div>
      <footer className="away-digest-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            void dismiss()
            showView('timeline')
          }}
        >
          Open the timeline
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => void dismiss()}
        >
          Dismiss
        </button>
      </footer>
    </section>
  )
}

function DigestPart({
  title,
  tone,
  lines,
}: {
  readonly title: string
  readonly tone: 'ok' | 'error'
  readonly lines: AwayDigest['finished']
}) {
  return (
    <div
      className={`away-digest-part is-${tone}`}
      data-testid={`away-digest-${title.toLowerCase()}`}
    >
      <h3 className="away-digest-part-title">
        {title} <span className="muted">{lines.length}</span>
      </h3>
      {lines.length === 0 ? (
        <p className="muted small">Nothing.</p>
      ) : (
        <ul>
          {lines.slice(0, MAX_LINES).map((line) => (
            <li key={line.entryId}>
              <strong>{laneLabel(line.agent)}</strong>: {line.summary}
            </li>
          ))}
          <More count={lines.length} />
        </ul>
      )}
    </div>
  )
}

function More({ count }: { readonly count: number }) {
  return count > MAX_LINES ? <li className="muted small">and {count - MAX_LINES} more</li> : null
}
