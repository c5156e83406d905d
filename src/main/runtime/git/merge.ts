import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { TeamError } from '../../../shared/errors'
import { teammateBranch, type MergeResult } from '../../../shared/worktree'
import { changedPaths } from './diff'
import { committerEnvironment, git, runGit, teammateIdentity } from './git'
import type { Worktrees } from './worktrees'

/**
 * What merging `branch` into `into` would give, found without touching any worktree
 * (`git merge-tree --write-tree`): the merged tree, or the conflicted files.
 */
export function trialMerge(
  cwd: string,
  into: string,
  branch: string,
): { tree: string; conflicts: string[] } {
  const result = runGit(cwd, ['merge-tree', '--write-tree', '--name-only', into, branch])
  if (result.status > 1) throw new TeamError('io', `git merge-tree failed: ${result.stderr.trim()}`)
  const [tree = '', ...rest] = result.stdout.split('\n')
  const blank = rest.indexOf('')
  const conflicts =
    result.status === 1 ? [...new Set(rest.slice(0, blank < 0 ? undefined : blank))] : []
  return { tree: tree.trim(), conflicts }
}

/**
 * Merges `name`'s branch into `into` with a merge commit or a squash. The teammate's
 * uncommitted work is committed to its branch first. The merge runs where `into` is checked
 * out (the base worktree, which must have no uncommitted changes to tracked files), or in a
 * temporary worktree when it is checked out nowhere. A conflict is found before anything is
 * touched; should git still stop on one, the merge is aborted, so the base is left clean.
 */
export function mergeBranch(
  worktrees: Worktrees,
  name: string,
  options: { into: string; squash: boolean },
): MergeResult {
  const workspace = worktrees.workspace
  const { into, squash } = options
  const branch = teammateBranch(name)
  if (runGit(workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${into}`]).status !== 0)
    throw new TeamError('invalid-argument', `There is no branch "${into}" to merge into.`)
  worktrees.checkpoint(name, `${name}: work in progress`)
  const trial = trialMerge(workspace, into, branch)
  if (trial.conflicts.length > 0) return { outcome: 'conflict', into, files: trial.conflicts }
  if (trial.tree === git(workspace, ['rev-parse', `${into}^{tree}`]).trim())
    return { outcome: 'nothing', into }

  const checkedOut = checkedOutAt(workspace, into)
  const place = checkedOut ?? temporaryWorktree(workspace, into)
  try {
    if (checkedOut !== null) assertClean(checkedOut, into)
    const before = git(place, ['rev-parse', 'HEAD']).trim()
    const env = committerEnvironment(workspace)
    const merged = squash
      ? runGit(place, ['merge', '--squash', branch], { env })
      : runGit(
          place,
          ['merge', '--no-ff', '--no-edit', '-m', `Merge ${branch} (${name}'s work)`, branch],
          {
            env,
          },
        )
    if (merged.status !== 0) {
      // Not expected after the trial merge; whatever stopped git, the base goes back as it was.
      runGit(place, squash ? ['reset', '--merge'] : ['merge', '--abort'])
      const files = runGit(place, ['diff', '--name-only', '--diff-filter=U']).stdout
      return { outcome: 'conflict', into, files: files.split('\n').filter(Boolean) }
    }
    if (squash) {
      const subjects = git(workspace, ['log', '--format=- %s', `${into}..${branch}`]).trim()
      git(
        place,
        ['commit', '--no-verify', '-q', '-m', `${name}'s work from ${branch}\n\n${subjects}`],
        {
          env: { ...env, ...authorOnly(teammateIdentity(name)) },
        },
      )
    }
    const commit = git(place, ['rev-parse', 'HEAD']).trim()
    const files = changedPaths(place, before, commit)
    if (squash) catchUp(worktrees, name, into)
    return { outcome: 'merged', into, commit, squash, files }
  } finally {
    if (checkedOut === null) {
      git(workspace, ['worktree', 'remove', '--force', place])
      rmSync(dirname(place), { recursive: true, force: true })
    }
  }
}

/**
 * After a squash the branch's commits are not in `into`, though their changes are: merging
 * `into` back into the branch (no conflict is possible) makes the branch's diff empty again.
 */
function catchUp(worktrees: Worktrees, name: string, into: string): void {
  const folder = worktrees.folder(name)
  const result = runGit(
    folder,
    ['merge', '--no-edit', '-q', '-m', `Take ${into} after the squash`, into],
    {
      env: teammateIdentity(name),
    },
  )
  if (result.status !== 0) runGit(folder, ['merge', '--abort'])
}

/** The folder where `branch` is checked out (the base worktree, usually), or null. */
export function checkedOutAt(workspace: string, branch: string): string | null {
  const listing = git(workspace, ['worktree', 'list', '--porcelain'])
  let path: string | null = null
  for (const line of listing.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${branch}`) return path
  }
  return null
}

function temporaryWorktree(workspace: string, branch: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'agent-teams-merge-')), 'worktree')
  git(workspace, ['worktree', 'add', '--quiet', folder, branch])
  return folder
}

function assertClean(folder: string, branch: string): void {
  const dirty = git(folder, ['status', '--porcelain', '--untracked-files=no']).trim()
  if (dirty !== '')
    throw new TeamError(
      'invalid-argument',
      `${folder} (where ${branch} is checked out) has uncommitted changes; commit or stash them, then merge again.`,
    )
  if (runGit(folder, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD']).status === 0)
    throw new TeamError(
      'invalid-argument',
      `${folder} is in the middle of a merge; finish it or run "git merge --abort" there first.`,
    )
}

function authorOnly(identity: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(identity).filter(([key]) => key.startsWith('GIT_AUTHOR_')),
  )
}
