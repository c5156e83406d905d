import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { FolderListing } from '../../shared/contract'
import { useAppStore } from '../store/context'
import { describeFailure } from '../store/failures'

/** Typing settles before the folder is read: one listing per pause, not one per key. */
const LISTING_DELAY_MS = 120

/**
 * Browser mode has no native folder dialog: a path field that lists the typed folder's
 * subfolders as you type (`~` is your home folder), completes with Tab and walks with a click.
 */
export function FolderBrowser({
  autoFocus,
  pending,
  onOpen,
}: {
  readonly autoFocus: boolean
  readonly pending: boolean
  readonly onOpen: (path: string) => void
}) {
  const listFolders = useAppStore((state) => state.listFolders)
  const [path, setPath] = useState('')
  const [listing, setListing] = useState<FolderListing | null>(null)
  const [listError, setListError] = useState<string | null>(null)
  const fieldId = useId()
  const listId = useId()
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let current = true
    const timer = setTimeout(() => {
      listFolders(path).then(
        (result) => {
          if (!current) return
          setListing(result)
          setListError(null)
        },
        (error: unknown) => {
          if (!current) return
          setListing(null)
          setListError(describeFailure(error).message)
        },
      )
    }, LISTING_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [path, listFolders])

  function enter(folder: string): void {
    setPath(folder.endsWith('/') ? folder : `${folder}/`)
    input.current?.focus()
  }

  function complete(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key !== 'Tab' || event.shiftKey || !listing || listing.entries.length === 0) return
    const names = listing.entries.map((entry) => entry.name)
    if (names.length === 1) {
      event.preventDefault()
      enter(listing.entries[0]!.path)
      return
    }
    const shared = commonPrefix(names)
    if (shared.length > listing.prefix.length) {
      event.preventDefault()
      setPath(joinPath(listing.folder, shared))
    }
  }

  const entries = listing?.entries ?? []
  return (
    <form
      className="path-form"
      onSubmit={(event) => {
        event.preventDefault()
        if (path.trim()) onOpen(path.trim())
      }}
    >
      <label htmlFor={fieldId}>Folder path</label>
      <div className="path-row">
        <input
          id={fieldId}
          ref={input}
          value={path}
          autoFocus={autoFocus}
          spellCheck={false}
          autoComplete="off"
          placeholder="~/projects/my-app"
          aria-controls={listId}
          onChange={(event) => setPath(event.target.value)}
          onKeyDown={complete}
        />
        <button
          type="submit"
          className="button button-primary"
          disabled={pending || path.trim() === ''}
        >
          {pending ? 'Opening…' : 'Open'}
        </button>
      </div>
      <p className="field-hint">
        Tab completes; ~ is your home folder. The team lives in the folder’s .team/ directory; it is
        created if missing.
      </p>
      <div className="folder-browser" id={listId} aria-label="Subfolders">
        {listing ? (
          <div className="folder-browser-head">
            <span className="folder-browser-where" title={listing.folder}>
              {listing.folder}
            </span>
            {listing.parent !== null ? (
              <button type="button" className="button" onClick={() => enter(listing.parent!)}>
                Up
              </button>
            ) : null}
          </div>
        ) : null}
        {listError !== null || listing?.problem ? (
          <p className="folder-browser-note" role="status">
            {listError ?? listing?.problem}
          </p>
        ) : null}
        {listing && !listing.problem && entries.length === 0 ? (
          <p className="folder-browser-note">
            {listing.prefix ? `No folder here starts with “${listing.prefix}”.` : 'No subfolders.'}
          </p>
        ) : null}
        {entries.length > 0 ? (
          <ul className="folder-browser-list">
            {entries.map((entry) => (
              <li key={entry.path}>
                <button
                  type="button"
                  className="recent-item"
                  onClick={() => enter(entry.path)}
                  title={entry.path}
                >
                  <span className="folder-icon" aria-hidden="true" />
                  <span className="recent-path">{entry.name}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {listing?.truncated ? (
          <p className="folder-browser-note">More folders match; keep typing to narrow them.</p>
        ) : null}
      </div>
    </form>
  )
}

function commonPrefix(names: readonly string[]): string {
  let shared = names[0] ?? ''
  for (const name of names) {
    while (!name.startsWith(shared)) shared = shared.slice(0, -1)
  }
  return shared
}

function joinPath(folder: string, name: string): string {
  return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`
}
