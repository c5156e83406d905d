import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'

/**
 * The folders of a git object store that git writes into: a new loose object goes to
 * `objects/<xx>/<38 hex>`, a pack to `objects/pack/`, the lists of packs to `objects/info/`.
 * Git follows a symbolic link at any of them, so an agent that could replace one by a link
 * would have the app's own git (outside the sandbox, with the person's rights) write a file of
 * the agent's choosing wherever the link leads. Files inside them are safe: git writes a
 * temporary file and links or renames it into place, which never follows a link at the name.
 */
export const OBJECT_FOLDERS: readonly string[] = [
  ...Array.from({ length: 256 }, (_, index) => index.toString(16).padStart(2, '0')),
  'pack',
  'info',
]

/**
 * Makes every folder of `OBJECT_FOLDERS` in the store `objects` a real folder: a missing one is
 * made, and anything else in its place (a link, a file) is removed (the entry itself, never
 * what a link leads to) and made a folder. Returns the entries it replaced, for the log.
 * One listing of the store and nothing more when they all are folders already.
 *
 * Throws `unsafe-repository` when `objects` itself is not a real folder: the app cannot know
 * what a link there leads to, and replacing it would lose the repository's objects.
 */
export function secureObjectFolders(objects: string): string[] {
  if (objectStoreKind(objects) !== 'folder')
    throw new TeamError(
      'unsafe-repository',
      `The repository's object store ${objects} is not a plain folder (a link, or missing), so Agent Teams does not write to it.`,
    )
  const found = new Map<string, boolean>()
  for (const entry of readdirSync(objects, { withFileTypes: true }))
    found.set(entry.name, entry.isDirectory())
  const replaced: string[] = []
  for (const name of OBJECT_FOLDERS) {
    const isFolder = found.get(name)
    if (isFolder === true) continue
    const path = join(objects, name)
    if (isFolder === false) {
      // rmSync on a link removes the link; recursive covers nothing but a folder, which this is not.
      rmSync(path, { force: true })
      replaced.push(path)
    }
    try {
      mkdirSync(path)
    } catch (error) {
      // Made meanwhile by git itself (a folder) is fine; anything else is checked again below.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (objectStoreKind(path) !== 'folder')
      throw new TeamError(
        'unsafe-repository',
        `${path} in the repository's object store was replaced again while Agent Teams repaired it, so Agent Teams does not write to it.`,
      )
  }
  return replaced
}

/** What is at `path`, links not followed. */
export function objectStoreKind(path: string): 'folder' | 'link' | 'other' | null {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (stats === undefined) return null
  if (stats.isSymbolicLink()) return 'link'
  return stats.isDirectory() ? 'folder' : 'other'
}
