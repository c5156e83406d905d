import { TeamError } from '../../shared/errors'
import type { TeamWorktrees } from '../git/team-worktrees'

/**
 * What `list_teammates` adds for a teammate with a worktree: its branch, how many files it
 * changed, and the files another teammate's branch changes too ("" for the shared workspace).
 */
export async function worktreeSummary(worktrees: TeamWorktrees, name: string): Promise<string> {
  if (worktrees.record(name) === null) return ', shared workspace'
  try {
    const view = await worktrees.view(name)
    if (!view) return ''
    const files = `${view.changedFiles} file${view.changedFiles === 1 ? '' : 's'} changed`
    const overlaps = Object.entries(view.overlaps).map(
      ([path, names]) => `${path} (also ${names.join(', ')})`,
    )
    const warning = overlaps.length > 0 ? `; overlaps: ${overlaps.join(', ')}` : ''
    return `, branch ${view.branch}, ${files}${warning}`
  } catch (error) {
    // A broken repository must not take the whole roster answer down with it.
    if (error instanceof TeamError) return `, branch unavailable (${error.message})`
    throw error
  }
}
