import { lstatSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { TeamError } from '../../shared/errors'

/** The folder under the workspace that only the runtime writes: roster, mailboxes, transcripts. */
export const TEAM_FOLDER = '.team'

/**
 * Resolves `path` (relative to the workspace, or absolute inside it) to the real absolute path a
 * file tool may open, or throws TeamError('path-refused'). Callers must open the returned
 * path, never the one they were given: `a/../b` is judged and used as `<workspace>/b` even when
 * `a` is a symlink, and every symlink on the way has already been followed and checked.
 *
 * Refused: NUL bytes, empty paths, anything outside the workspace (`..`, absolute paths, sibling
 * prefixes such as `/ws-evil` beside `/ws`, symlinks that lead out) and anything in `.team/`,
 * for reading as well as writing, so that no agent can read or forge another's mail. Writing a
 * `.git` entry at any depth (a worktree's `.git` file, a repository's config or hooks) is
 * refused too: git's own files decide what the app's git and the person's run, and a `.git` file
 * says where a repository is (sandbox/agent-policy.ts keeps the same parts read-only to bash).
 *
 * This is the check; confined-fs.ts then opens the path it returns one folder at a time without
 * following links, so that a folder swapped for a symlink in between is refused, not followed.
 * Agents also have bash, so the real boundary is the OS (the workspace folder, the user account,
 * a sandbox); this keeps the file tools honest, not the machine safe.
 */
export function resolveInWorkspace(
  workspace: string,
  path: string,
  purpose: 'read' | 'write',
): string {
  if (path.includes('\0')) refuse(path, 'contains a NUL byte')
  if (path.trim() === '') refuse(path, 'is empty; give a path relative to the workspace')

  const workspaceGiven = resolve(workspace)
  const workspaceReal = realWorkspace(workspaceGiven)
  const lexical = resolve(workspaceGiven, path)
  // An absolute path may name the workspace by either spelling (a symlinked /tmp, say).
  const inside = [workspaceGiven, workspaceReal]
    .map((base) => relative(base, lexical))
    .find((relativePath) => isInside(relativePath))
  if (inside === undefined) refuse(path, 'is outside the workspace')
  if (isTeamPath(inside)) refuseTeam(path, purpose)

  const real = realPathAllowingMissing(join(workspaceReal, inside), path)
  const realInside = relative(workspaceReal, real)
  if (!isInside(realInside)) refuse(path, 'leads outside the workspace through a symbolic link')
  if (isTeamPath(realInside)) refuseTeam(path, purpose)
  if (purpose === 'write' && (isGitPath(inside) || isGitPath(realInside))) refuseGit(path)
  return real
}

/** `absolutePath` as the model should see it: relative to the workspace, `/`-separated. */
export function displayPath(workspace: string, absolutePath: string): string {
  let base = resolve(workspace)
  try {
    base = realpathSync(base)
  } catch {
    // A missing workspace keeps its given spelling; the path is only for a message.
  }
  const relativePath = relative(base, absolutePath)
  if (relativePath === '') return '.'
  return isInside(relativePath) ? relativePath.split(sep).join('/') : absolutePath
}

function isInside(relativePath: string): boolean {
  return relativePath !== '..' && !relativePath.startsWith(`..${sep}`) && !isAbsolute(relativePath)
}

function isTeamPath(relativePath: string): boolean {
  // Case-insensitive: on macOS and Windows `.TEAM/inbox` is the same folder as `.team/inbox`.
  return relativePath.split(sep)[0]?.toLowerCase() === TEAM_FOLDER
}

function isGitPath(relativePath: string): boolean {
  return relativePath.split(sep).some((part) => part.toLowerCase() === '.git')
}

/** The workspace's real path (symlinks resolved), or a TeamError when it cannot be opened. */
export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace)
  } catch (error) {
    throw new TeamError('io', `The workspace ${workspace} cannot be opened: ${String(error)}`)
  }
}

/**
 * The real path of `candidate`, which may not exist yet (a file about to be written): the
 * deepest existing ancestor is resolved and the missing rest appended, which cannot contain
 * symlinks because it does not exist. An entry that exists but cannot be resolved is a
 * dangling symlink, whose target could be anywhere, so it is refused.
 */
function realPathAllowingMissing(candidate: string, givenPath: string): string {
  const missing: string[] = []
  let current = candidate
  for (;;) {
    try {
      return join(realpathSync(current), ...missing)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ELOOP') refuse(givenPath, 'goes through a loop of symbolic links')
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      if (code === 'ENOENT' && existsAsEntry(current)) {
        refuse(givenPath, 'goes through a symbolic link whose target does not exist')
      }
    }
    const parent = dirname(current)
    // The workspace itself exists, so the walk stops before reaching the root.
    if (parent === current) refuse(givenPath, 'cannot be resolved')
    missing.unshift(relative(parent, current))
    current = parent
  }
}

function existsAsEntry(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function refuse(path: string, problem: string): never {
  throw new TeamError('path-refused', `The path ${JSON.stringify(path)} ${problem}.`, { path })
}

function refuseGit(path: string): never {
  throw new TeamError(
    'path-refused',
    `The path ${JSON.stringify(path)} is inside a .git folder (or is a .git file): git's own ` +
      'files are not written with file tools. Use git commands in bash (commit, branch, …).',
    { path },
  )
}

function refuseTeam(path: string, purpose: 'read' | 'write'): never {
  throw new TeamError(
    'path-refused',
    `The path ${JSON.stringify(path)} is inside ${TEAM_FOLDER}/, which holds the team's roster ` +
      `and mailboxes; file tools may not ${purpose} it. ` +
      'Use send_message and read_inbox to talk to the team.',
    { path },
  )
}
