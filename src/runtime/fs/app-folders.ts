import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { TeamError } from '../../shared/errors'

/**
 * The app's own folders, outside every workspace: what is kept there was written by the app (or
 * the person), never by an agent, whose sandbox cannot write them.
 *
 * - The data folder (`$XDG_DATA_HOME/agent-teams`, else `~/.local/share/agent-teams`): the
 *   teammates' git worktrees and the app's record of them, one folder per workspace. Agents read
 *   it (a worktree is where a teammate works) but write only in their own worktree.
 * - The config folder (beside settings.json) is the other one; the sandbox makes it unreadable.
 */
export function appDataFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'agent-teams')
}

/**
 * The data folder of one workspace: `<data>/workspaces/<name>-<hash of its real path>`. The name
 * only helps a person who looks; the hash tells two folders of the same name apart.
 */
export function workspaceDataFolder(dataFolder: string, workspace: string): string {
  const real = realWorkspacePath(workspace)
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 16)
  const name =
    basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'workspace'
  return join(dataFolder, 'workspaces', `${name}-${hash}`)
}

function realWorkspacePath(workspace: string): string {
  try {
    return realpathSync(workspace)
  } catch {
    return resolve(workspace)
  }
}

/**
 * Makes `folder` (and its parents) private to the person (0700) if missing, and checks that it is
 * a real folder, not a link somebody put in its place.
 */
export function ensurePrivateFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const stats = lstatSync(folder)
  if (!stats.isDirectory() || stats.isSymbolicLink())
    throw new TeamError(
      'io',
      `${folder} is not a folder (it is a link or a file); Agent Teams keeps its own data there. Move it aside and try again.`,
    )
  return folder
}
