import { useAppStore } from '../store/context'
import { BrandMark } from './FirstRun'
import { shortPath } from './format'
import { ThemeSwitch } from '../theme/ThemeSwitch'

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
