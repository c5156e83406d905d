import { useAppStore } from '../store/context'
import { BrandMark } from '../workspace/FirstRun'
import { shortPath } from '../ui/format'
import { ThemeSwitch } from '../ui/theme/ThemeSwitch'
import { pendingCount } from '../store/needs-you'

export function Header() {
  const workspace = useAppStore((state) => state.workspace)
  const teamName = useAppStore((state) => state.teamName)
  const openDialog = useAppStore((state) => state.openDialog)
  return (
    <header className="app-header">
      <div className="brand">
        <BrandMark />
        <span className="brand-name">Agent Teams</span>
      </div>
      {workspace !== null ? (
        <div className="workspace-info" title={workspace}>
          {teamName ? <span className="team-name">{teamName}</span> : null}
          <span className="workspace-path">{shortPath(workspace, 4)}</span>
        </div>
      ) : (
        <div className="workspace-info muted">No folder open</div>
      )}
      <ModelChip />
      <NeedsYouButton />
      <nav className="header-actions" aria-label="Application">
        {workspace !== null ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => openDialog({ kind: 'search' })}
            title="Search every transcript and inbox (Ctrl+Shift+F)"
          >
            Search
          </button>
        ) : null}
        <ThemeSwitch />
        <button
          type="button"
          className="button button-ghost"
          onClick={() => openDialog({ kind: 'open-workspace' })}
          title="Open a folder (Ctrl+O)"
        >
          Open folder
        </button>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => openDialog({ kind: 'settings' })}
          title="Settings (Ctrl+,)"
        >
          Settings
        </button>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => openDialog({ kind: 'help' })}
          title="Help and shortcuts (? or F1)"
        >
          Help
        </button>
      </nav>
    </header>
  )
}

/** How many things wait on the person; opens the Needs-you view. */
function NeedsYouButton() {
  const count = useAppStore((state) => pendingCount(state.needsYou))
  const showView = useAppStore((state) => state.showView)
  const workspace = useAppStore((state) => state.workspace)
  if (workspace === null) return null
  return (
    <button
      type="button"
      className={count > 0 ? 'needs-you-button has-items' : 'needs-you-button'}
      data-testid="needs-you-count"
      aria-label={`Needs you: ${count}`}
      title="Approvals, questions, plans, pauses, errors and stalls waiting on you"
      onClick={() => showView('needs-you')}
    >
      Needs you <span className="needs-you-badge">{count}</span>
    </button>
  )
}

/** Which model the team talks to; a missing key is a warning the person can act on. */
function ModelChip() {
  const settings = useAppStore((state) => state.settings)
  const demo = useAppStore(
    (state) => state.demoWorkspace !== null && state.demoWorkspace === state.workspace,
  )
  const offline = useAppStore((state) => state.offline || state.settings?.useOfflineModel === true)
  const openDialog = useAppStore((state) => state.openDialog)
  // An agent waiting because nothing answered at all: the endpoint is down or unreachable.
  const unreachable = useAppStore((state) =>
    Object.values(state.agents).some(
      (agent) => agent.status === 'waiting' && agent.statusCause === 'unreachable',
    ),
  )
  if (settings === null) return null
  const missing = !settings.apiKeySet && !offline && !demo
  const label = demo
    ? 'Offline demo'
    : offline
      ? 'Offline model'
      : missing
        ? 'No API key'
        : settings.model
  return (
    <button
      type="button"
      className={
        unreachable
          ? 'model-chip model-chip-unreachable'
          : missing
            ? 'model-chip model-chip-warning'
            : 'model-chip'
      }
      onClick={() => openDialog({ kind: 'settings' })}
      title={
        unreachable
          ? 'The model endpoint cannot be reached; agents retry by themselves. Check the network and the base URL in Settings.'
          : missing
            ? 'No API key is set: open Settings'
            : offline || demo
              ? 'The team runs on the built-in offline model: open Settings for a real one'
              : `Model: ${label}`
      }
    >
      <span className="model-dot" aria-hidden="true" />
      {label}
    </button>
  )
}
