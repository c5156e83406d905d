import { lstatSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'

/** How deep folders under `.team/` go: `mailbox/<name>/archive/`. */
const DEPTH = 4

/**
 * Refuses a `.team/` that is not a real folder, or holds a link to a folder: the runtime makes
 * and writes every folder under it (inboxes, transcripts, archives) by name, and a link would
 * carry those writes wherever it leads. A repository can commit such links (`.team -> ..`), so
 * this runs before the team takes its lock there. Links to files are refused where each file is
 * opened (fs/safe-open.ts).
 */
export function assertRealTeamFolder(root: string): void {
  const stats = lstatSync(root, { throwIfNoEntry: false })
  if (stats === undefined) return
  if (stats.isSymbolicLink() || !stats.isDirectory())
    throw refusal(root, stats.isSymbolicLink() ? 'is a symbolic link' : 'is not a folder')
  walk(root, DEPTH)
}

function walk(folder: string, depth: number): void {
  if (depth === 0) return
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return
  }
  for (const name of names) {
    const path = join(folder, name)
    const stats = lstatSync(path, { throwIfNoEntry: false })
    if (stats === undefined) continue
    if (stats.isSymbolicLink()) {
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true)
        throw refusal(path, 'is a symbolic link to a folder')
    } else if (stats.isDirectory()) walk(path, depth - 1)
  }
}

function refusal(path: string, what: string): TeamError {
  return new TeamError(
    'io',
    `${path} ${what}; Agent Teams keeps a team's files only in real folders, so it does not open this team. ` +
      'If the workspace came from a repository, that repository ships it: remove the link (or the whole .team/ folder) and open the workspace again.',
  )
}
