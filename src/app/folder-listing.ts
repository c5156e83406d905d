import { readdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { FolderListing } from '../shared/contract'
import { TeamError } from '../shared/errors'

/** Enough for any real folder; a listing beyond it says it was cut rather than stalling the UI. */
const MAX_ENTRIES = 500

/**
 * `~` and `~/…` name the person's home folder, as in a shell. Only the person's own home: `~user`
 * would need the password database, and a browser-mode user types their own paths.
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home
  if (path.startsWith('~/')) return join(home, path.slice(2))
  return path
}

/**
 * An absolute folder path from what the person typed. Relative paths are refused: in browser mode
 * they would resolve against the server's working folder, which the person cannot see.
 */
export function absoluteFolder(typed: string, home?: string): string {
  const expanded = expandHome(typed.trim(), home)
  if (!isAbsolute(expanded))
    throw new TeamError(
      'invalid-argument',
      `"${typed}" is a relative path. Type the whole path from / (or start it with ~ for your home folder).`,
    )
  return resolve(expanded)
}

/**
 * What the folder browser shows for a typed path: a path ending in a separator lists that folder;
 * otherwise it lists the parent's subfolders whose names start with the last part, which is what
 * completion offers. Hidden folders appear only when the typed part starts with a dot.
 */
export async function listFolders(typed: string, home?: string): Promise<FolderListing> {
  const absolute = absoluteFolder(typed === '' ? '~/' : typed, home)
  const endsInSeparator = /[/\\]$/.test(typed) || typed === '~' || typed === ''
  const folder = endsInSeparator ? absolute : dirname(absolute)
  const prefix = endsInSeparator ? '' : absolute.slice(folder.length).replace(/^[/\\]/, '')
  let names: string[]
  try {
    const entries = await readdir(folder, { withFileTypes: true })
    names = []
    for (const entry of entries) {
      if (entry.isDirectory()) names.push(entry.name)
      // A link is offered when it leads to a folder; a dangling one is left out.
      else if (entry.isSymbolicLink() && (await isFolder(join(folder, entry.name))))
        names.push(entry.name)
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'ENOTDIR'
          ? 'is a file, not a folder'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${code ?? 'unknown error'})`
    return {
      folder,
      prefix,
      parent: parentOf(folder),
      entries: [],
      truncated: false,
      problem: `${folder} ${why}.`,
    }
  }
  const showHidden = prefix.startsWith('.')
  const matching = names
    .filter((name) => name.startsWith(prefix) && (showHidden || !name.startsWith('.')))
    .sort((a, b) => a.localeCompare(b))
  return {
    folder,
    prefix,
    parent: parentOf(folder),
    entries: matching.slice(0, MAX_ENTRIES).map((name) => ({ name, path: join(folder, name) })),
    truncated: matching.length > MAX_ENTRIES,
    problem: null,
  }
}

function parentOf(folder: string): string | null {
  const parent = dirname(folder)
  return parent === folder ? null : parent
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
