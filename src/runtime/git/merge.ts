import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { TeamError } from '../../shared/errors'
import { teammateBranch, type MergeResult } from '../../shared/worktree'
import { changedPaths } from './diff'
import { teammateIdentity, type Git } from './git'
import { guardMerge } from './merge-guard'
import type { Worktrees } from './worktrees'

/**
 * What merging `branch` into `into` would give, found without touching any worktree
 * (`git merge-tree --write-tree`): the merged tree, or the conflicted files. A merge that needs
 * one of the repository's own merge drivers is refused: the app never runs them (hardening.ts).
 */
export async function trialMerge(
  git: Git,
  cwd: string,
  into: string,
  branch: string,
): Promise<{ tree: string; conflicts: string[] }> {
  const result = await git.run(cwd, ['merge-tree', '--write-tree', '--name-only', into, branch])
  if (result.status > 1) {
    const drivers = await git.mergeDrivers(cwd)
    if (drivers.length > 0 && /cannot run|failed to execute internal merge/i.test(result.stderr))
      throw new TeamError(
        'unsafe-repository',
        `Merging ${branch} needs the repository's merge driver ${drivers.join(', ')}, a program its git configuration names; Agent Teams never runs those. Merge it yourself with git.`,
      )
    throw new TeamError('io', `git merge-tree failed: ${result.stderr.trim()}`)
  }
  const [tree = '', ...rest] = result.stdout.split('\n')
  const blank = rest.indexOf('')
  const conflicts =
    result.status === 1 ? [...new Set(rest.slice(0, blank < 0 ? undefined : blank))] : []
  return { tree: tree.trim(), conflicts }
}

/**
 * Merges `name`'s branch into `into` with a merge commit or a squash. The teammate's
 * uncommitted work is committed to its branch first. A conflict is found before anything is
 * touched; so is a merge that would bring in the team's own files (refused) or files that
 * change how git or the app behaves (merged only with `confirm`). The merge runs where `into` is
 * checked out (which must have no uncommitted changes to tracked files), or in a temporary
 * worktree; should git still stop, the merge is aborted, so the base is left clean.
 */
export async function mergeBranch(
  worktrees: Worktrees,
  name: string,
  options: { into: string; squash: boolean; confirm?: boolean },
): Promise<MergeResult> {
  const { git, workspace } = worktrees
  const { into, squash } = options
  const branch = teammateBranch(name)
  const exists = await git.run(workspace, [
    'rev-parse',
    '--verify',
    '--quiet',
    `refs/heads/${into}`,
  ])
  if (exists.status !== 0)
    throw new TeamError('not-found', `There is no branch "${into}" to merge into.`)
  // Before anything moves: a log of the person's branch planted by an agent is refused up front
  // (every ref-moving git call checks again, ref-logs.ts).
  await git.assertRefLogsUnplanted(workspace, [`refs/heads/${into}`])
  if (worktrees.exists(name)) await worktrees.checkpoint(name, `${name}: work in progress`)
  const trial = await trialMerge(git, workspace, into, branch)
  if (trial.conflicts.length > 0) return { outcome: 'conflict', into, files: trial.conflicts }
  const intoTree = (await git.output(workspace, ['rev-parse', `${into}^{tree}`])).trim()
  if (trial.tree === intoTree) return { outcome: 'nothing', into }
  const guard = guardMerge(await changedPaths(git, workspace, intoTree, trial.tree))
  if (guard.teamFiles.length > 0)
    return {
      outcome: 'refused',
      into,
      files: guard.teamFiles,
      reason: `${branch} holds the team's own files (${guard.teamFiles.slice(0, 5).join(', ')}${guard.teamFiles.length > 5 ? ', …' : ''}), which never come in through a merge: they are the person's channel and the team's rights. Remove them from the branch (git rm -r --cached .team, then commit) and merge again.`,
    }
  if (guard.behaviourFiles.length > 0 && options.confirm !== true)
    return { outcome: 'needs-confirmation', into, files: guard.behaviourFiles }

  const checkedOut = await checkedOutAt(git, workspace, into)
  const place = checkedOut ?? (await temporaryWorktree(git, workspace, into))
  try {
    if (checkedOut !== null) await assertClean(git, checkedOut, into)
    const before = (await git.output(place, ['rev-parse', 'HEAD'])).trim()
    const env = await git.committerEnvironment(workspace)
    const merged = squash
      ? await git.run(place, ['merge', '--squash', branch], { env })
      : await git.run(
          place,
          ['merge', '--no-ff', '--no-edit', '-m', `Merge ${branch} (${name}'s work)`, branch],
          { env },
        )
    if (merged.status !== 0) {
      // Not expected after the trial merge; whatever stopped git, the base goes back as it was.
      await git.run(place, squash ? ['reset', '--merge'] : ['merge', '--abort'])
      const files = (await git.run(place, ['diff', '--name-only', '--diff-filter=U'])).stdout
      return { outcome: 'conflict', into, files: files.split('\n').filter(Boolean) }
    }
    if (squash) {
      const subjects = (
        await git.output(workspace, ['log', '--format=- %s', `${into}..${branch}`])
      ).trim()
      await git.output(
        place,
        ['commit', '--no-verify', '-q', '-m', `${name}'s work from ${branch}\n\n${subjects}`],
        { env: { ...env, ...authorOnly(teammateIdentity(name)) } },
      )
    }
    const commit = (await git.output(place, ['rev-parse', 'HEAD'])).trim()
    const files = await changedPaths(git, place, before, commit)
    if (squash) await catchUp(worktrees, name, into)
    return { outcome: 'merged', into, commit, squash, files }
  } finally {
    if (checkedOut === null) {
      await git.run(workspace, ['worktree', 'remove', '--force', place])
      rmSync(dirname(place), { recursive: true, force: true })
    }
  }
}

/**
 * After a squash the branch's commits are not in `into`, though their changes are: merging
 * `into` back into the branch (no conflict is possible) makes the branch's diff empty again.
 */
async function catchUp(worktrees: Worktrees, name: string, into: string): Promise<void> {
  if (!worktrees.exists(name)) return
  const args = ['merge', '--no-edit', '-q', '-m', `Take ${into} after the squash`, into]
  const result = await worktrees.runIn(name, args, { env: teammateIdentity(name) })
  if (result.status !== 0) await worktrees.runIn(name, ['merge', '--abort'])
}

/** The folder where `branch` is checked out (the base worktree, usually), or null. */
export async function checkedOutAt(
  git: Git,
  workspace: string,
  branch: string,
): Promise<string | null> {
  const listing = await git.output(workspace, ['worktree', 'list', '--porcelain'])
  let path: string | null = null
  for (const line of listing.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${branch}`) return path
  }
  return null
}

async function temporaryWorktree(git: Git, workspace: string, branch: string): Promise<string> {
  const folder = join(mkdtempSync(join(tmpdir(), 'agent-teams-merge-')), 'worktree')
  await git.output(workspace, ['worktree', 'add', '--quiet', folder, branch])
  return folder
}

async function assertClean(git: Git, folder: string, branch: string): Promise<void> {
  const dirty = (await git.output(folder, ['status', '--porcelain', '--untracked-files=no'])).trim()
  if (dirty !== '')
    throw new TeamError(
      'merge-blocked',
      `${folder} (where ${branch} is checked out) has uncommitted changes; commit or stash them, then merge again.`,
    )
  if ((await git.run(folder, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'])).status === 0)
    throw new TeamError(
      'merge-blocked',
      `${folder} is in the middle of a merge; finish it or run "git merge --abort" there first.`,
    )
}

function authorOnly(identity: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(identity).filter(([key]) => key.startsWith('GIT_AUTHOR_')),
  )
}
