import { useEffect, useState } from 'react'
import { z } from 'zod'
import { assertNever } from '../shared/errors'
import { appInfoSchema, type AgentTeamsApi, type AppInfo } from '../shared/contract'

type InfoState =
  | { readonly status: 'not-connected' }
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly info: AppInfo }
  | { readonly status: 'failed'; readonly message: string }

export interface AppProps {
  /** The contract's API; defaults to the one the preload exposes, absent in a plain browser. */
  readonly api?: AgentTeamsApi | undefined
}

export function App({ api = window.agentTeams }: AppProps) {
  const info = useAppInfo(api)
  return (
    <div className="app">
      <header className="app-header">
        <div className="brand-mark" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <div>
          <h1>Agent Teams</h1>
          <p className="tagline">
            Lead a team of LLM agents that work together through mailboxes in your workspace.
          </p>
        </div>
      </header>
      <main className="app-main">
        <section className="panel" aria-labelledby="connection-heading">
          <div className="panel-header">
            <h2 id="connection-heading">Connection</h2>
            <StatusBadge state={info} />
          </div>
          <InfoBody state={info} />
        </section>
      </main>
    </div>
  )
}

function useAppInfo(api: AgentTeamsApi | undefined): InfoState {
  const [state, setState] = useState<InfoState>(() =>
    api === undefined ? { status: 'not-connected' } : { status: 'loading' },
  )
  useEffect(() => {
    if (api === undefined) {
      setState({ status: 'not-connected' })
      return
    }
    // A reply that lands after unmount (or after StrictMode's rehearsal) must not set state.
    let current = true
    setState({ status: 'loading' })
    api
      .getInfo()
      .then(parseAppInfo)
      .then(
        (info) => {
          if (current) setState({ status: 'ready', info })
        },
        (error: unknown) => {
          if (current) setState({ status: 'failed', message: describeError(error) })
        },
      )
    return () => {
      current = false
    }
  }, [api])
  return state
}

function StatusBadge({ state }: { readonly state: InfoState }) {
  switch (state.status) {
    case 'not-connected':
      return <span className="badge badge-muted">Browser</span>
    case 'loading':
      return <span className="badge badge-muted">Connecting…</span>
    case 'ready':
      return <span className="badge badge-ok">Connected</span>
    case 'failed':
      return <span className="badge badge-danger">Error</span>
    default:
      return assertNever(state, 'info state')
  }
}

function InfoBody({ state }: { readonly state: InfoState }) {
  switch (state.status) {
    case 'not-connected':
      return <p className="muted">browser mode: not connected</p>
    case 'loading':
      return <p className="muted">Reading the app info…</p>
    case 'ready':
      return (
        <dl className="facts">
          <dt>Version</dt>
          <dd>{state.info.version}</dd>
          <dt>Workspace</dt>
          <dd>
            <code>{state.info.workspace}</code>
          </dd>
        </dl>
      )
    case 'failed':
      return (
        <p className="error" role="alert">
          Could not read the app info: {state.message}
        </p>
      )
    default:
      return assertNever(state, 'info state')
  }
}

/** The reply crossed a process boundary: check it against the contract before trusting it. */
function parseAppInfo(reply: unknown): AppInfo {
  const parsed = appInfoSchema.safeParse(reply)
  if (parsed.success) return parsed.data
  throw new Error(`the reply does not match the contract: ${z.prettifyError(parsed.error)}`)
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
