import { readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

/**
 * The parts of a repository a command in a git worktree must write to commit: the worktree's
 * own admin folder (HEAD, index) and the shared objects, refs and logs. Hooks and config are
 * left out on purpose: they run code in the person's later git commands, so a sandboxed
 * command must not plant them. An ordinary checkout (a `.git` folder inside the workspace) or
 * no repository needs nothing: the workspace is writable already.
 */
export function worktreeGitFolders(workspace: string): string[] {
  const dotGit = join(workspace, '.git')
  let text: string
  try {
    if (!statSync(dotGit).isFile()) return []
    text = readFileSync(dotGit, 'utf8')
  } catch {
    return []
  }
  const match = /^gitdir:\s*(.+)$/m.exec(text)
  if (match?.[1] === undefined) return []
  const admin = resolve(workspace, match[1].trim())
  let common: string
  try {
    const named = readFileSync(join(admin, 'commondir'), 'utf8').trim()
    common = isAbsolute(named) ? named : resolve(admin, named)
  } catch {
    // No commondir: not a linked worktree's admin folder; only it is given.
    return [admin]
  }
  return [admin, join(common, 'objects'), join(common, 'refs'), join(common, 'logs')]
}
