import type { UndoPlan } from '../../shared/undo'
import { outputIn, runIn, type UndoFolder } from './folder-state'

/** What an undo does to the commits made since the checkpoint, and the branch move if any. */
export interface CommitsVerdict {
  readonly commits: UndoPlan['commits']
  /** The reset to make: the branch ref, where it is now, and where it goes. */
  readonly reset: { readonly ref: string; readonly from: string; readonly to: string } | null
}

const NONE: CommitsVerdict = { commits: { count: 0, action: 'none', reason: null }, reset: null }

/**
 * The commits rule: an agent's commits since the checkpoint leave its branch (a reset to the
 * checkpoint's HEAD) only when nothing else holds them: no other branch, tag or remote ref, no
 * detached HEAD of another worktree, and so no merge of them anywhere. The app's own refs
 * (`refs/agent-teams/…`, whose snapshots sit on top of the branch) do not count. Otherwise the
 * undo is refused, saying what holds them and the way out: a revert commit. In the shared
 * workspace the branch is the person's, never reset.
 */
export async function judgeCommits(
  folder: UndoFolder,
  checkpointHead: string | null,
  headNow: string | null,
): Promise<CommitsVerdict> {
  if (folder.branch === null) {
    if (checkpointHead === headNow) return NONE
    const count = await countBetween(folder, checkpointHead, headNow)
    return refused(
      count,
      `it works in the shared workspace, where ${count} commit${count === 1 ? ' was' : 's were'} made since the checkpoint on the branch checked out there, which is yours: Agent Teams does not move it. Revert ${count === 1 ? 'it' : 'them'} with a commit (\`git revert --no-edit ${short(checkpointHead)}..HEAD\`), or undo back to a checkpoint after ${count === 1 ? 'it' : 'them'}`,
    )
  }
  const tip = await revParse(folder, folder.branch)
  if (tip === null) return refused(0, `its branch ${branchName(folder)} is gone; nothing is reset`)
  if (headNow !== tip)
    return refused(
      0,
      `its worktree's HEAD is not on its branch ${branchName(folder)} (it checked out something else); check out ${branchName(folder)} there first`,
    )
  if (checkpointHead === tip) return NONE
  if (checkpointHead === null)
    return refused(0, `its branch ${branchName(folder)} had no commit at the checkpoint`)
  const listed = await outputIn(folder, ['rev-list', '--parents', `${checkpointHead}..${tip}`])
  const lines = listed.split('\n').filter((line) => line !== '')
  const inRange = new Set(lines.map((line) => line.split(' ')[0] ?? ''))
  const roots = lines
    .map((line) => line.split(' '))
    .filter(([, ...parents]) => parents.length === 0 || parents.some((p) => !inRange.has(p)))
    .map(([commit = '']) => commit)
  const holders = new Set<string>()
  for (const root of roots) for (const holder of await holdersOf(folder, root)) holders.add(holder)
  const count = inRange.size
  if (holders.size > 0)
    return refused(
      count,
      `${count} commit${count === 1 ? '' : 's'} it made since the checkpoint ${count === 1 ? 'is' : 'are'} also held by ${[...holders].join(', ')}, so resetting ${branchName(folder)} would not take ${count === 1 ? 'it' : 'them'} back. Way out: revert ${count === 1 ? 'it' : 'them'} with a commit in its worktree (\`git revert --no-edit ${short(checkpointHead)}..${branchName(folder)}\`), or undo back to a checkpoint after ${count === 1 ? 'it' : 'them'}`,
    )
  return {
    commits: { count, action: 'reset', reason: null },
    reset: { ref: folder.branch, from: tip, to: checkpointHead },
  }
}

/** Every ref (but the agent's branch and the app's own) and detached HEAD that holds `commit`. */
async function holdersOf(folder: UndoFolder, commit: string): Promise<string[]> {
  const refs = (
    await outputIn(folder, ['for-each-ref', '--format=%(refname)', '--contains', commit])
  )
    .split('\n')
    .filter((ref) => ref !== '' && ref !== folder.branch && !ref.startsWith('refs/agent-teams/'))
  const detached: string[] = []
  const listing = await runIn(folder, ['worktree', 'list', '--porcelain', '-z'])
  for (const block of listing.stdout.split('\0\0')) {
    const fields = block.split('\0')
    if (!fields.includes('detached')) continue
    const path = fields.find((field) => field.startsWith('worktree '))?.slice(9) ?? '?'
    const head = fields.find((field) => field.startsWith('HEAD '))?.slice(5)
    if (head === undefined) continue
    const ancestor = await runIn(folder, ['merge-base', '--is-ancestor', commit, head])
    if (ancestor.status === 0) detached.push(`the detached HEAD of ${path}`)
  }
  return [...refs, ...detached]
}

async function countBetween(
  folder: UndoFolder,
  from: string | null,
  to: string | null,
): Promise<number> {
  if (to === null) return 0
  const range = from === null ? [to] : [`${from}..${to}`]
  const result = await runIn(folder, ['rev-list', '--count', ...range])
  return result.status === 0 ? Number.parseInt(result.stdout.trim(), 10) || 0 : 0
}

async function revParse(folder: UndoFolder, revision: string): Promise<string | null> {
  const result = await runIn(folder, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`])
  return result.status === 0 ? result.stdout.trim() : null
}

function refused(count: number, reason: string): CommitsVerdict {
  return { commits: { count, action: 'refused', reason }, reset: null }
}

function branchName(folder: UndoFolder): string {
  return (folder.branch ?? '').replace(/^refs\/heads\//, '')
}

function short(commit: string | null): string {
  return commit === null ? '<root>' : commit.slice(0, 12)
}
