import { lstatSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { LEGACY_WORKTREES_FOLDER, teammateBranch } from '../../shared/worktree'
import type { Git } from './git'

/**
 * A teammate's worktree from before worktrees moved to the app's data folder:
 * `<workspace>/.team-worktrees/<name>`, on its branch, as git's own list of worktrees has it.
 * Only a real folder in a real `.team-worktrees` counts: a repository can commit a link by that
 * name (`.team-worktrees -> ..`), and the app never follows a link it did not make.
 */
export async function legacyWorktree(
  git: Git,
  workspace: string,
  name: string,
): Promise<string | null> {
  let real: string
  try {
    real = realpathSync(workspace)
  } catch {
    return null
  }
  const parent = join(real, LEGACY_WORKTREES_FOLDER)
  const folder = join(parent, name)
  if (!isRealFolder(parent) || !isRealFolder(folder)) return null
  const listing = await git.run(workspace, ['worktree', 'list', '--porcelain'])
  if (listing.status !== 0) return null
  let path: string | null = null
  for (const line of listing.stdout.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${teammateBranch(name)}` && path === folder) return folder
  }
  return null
}

function isRealFolder(path: string): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  return stats !== undefined && stats.isDirectory() && !stats.isSymbolicLink()
}
