import { useState } from 'react'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { FolderBrowser } from './FolderBrowser'
import { useCommand } from '../ui/useCommand'

/**
 * Open a folder: the OS picker where there is one (Electron), otherwise a path field (browser
 * mode: a folder browser with completion), and the recent folders either way.
 */
export function OpenWorkspace({ autoFocus = false }: { readonly autoFocus?: boolean }) {
  const pickFolder = useAppStore((state) => state.pickFolder)
  const openWorkspace = useAppStore((state) => state.openWorkspace)
  const recent = useAppStore((state) => state.recentWorkspaces)
  const mode = useAppStore((state) => state.info?.mode ?? 'browser')
  const [pickerMissing, setPickerMissing] = useState(mode === 'browser')
  const pick = useCommand(pickFolder)
  const open = useCommand(openWorkspace)
  const error = pick.error ?? open.error

  async function choose(): Promise<void> {
    open.clearError()
    const outcome = await pick.run()
    if (outcome.ok && !outcome.value.supported) setPickerMissing(true)
  }

  return (
    <div className="open-workspace">
      {pickerMissing ? (
        <FolderBrowser
          autoFocus={autoFocus}
          pending={open.pending}
          onOpen={(folder) => void open.run(folder)}
        />
      ) : (
        <button
          type="button"
          className="button button-primary"
          disabled={pick.pending || open.pending}
          onClick={() => void choose()}
        >
          {pick.pending ? 'Choosing…' : 'Choose a folder…'}
        </button>
      )}
      <InlineError error={error} />
      {recent.length > 0 ? (
        <div className="recent">
          <h3 className="recent-title">Recent folders</h3>
          <ul className="recent-list">
            {recent.map((folder) => (
              <li key={folder}>
                <button
                  type="button"
                  className="recent-item"
                  disabled={open.pending}
                  onClick={() => void open.run(folder)}
                  title={folder}
                >
                  <span className="folder-icon" aria-hidden="true" />
                  <span className="recent-path">{folder}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
