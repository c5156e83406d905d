import { isValidName } from '../../shared/names'
import type { TimelineEntry } from '../../shared/timeline'
import { teammateBranch, type MemberWorktree } from '../../shared/worktree'
import type { Worktrees } from '../git/worktrees'
import { entry, entryId, isTimelineTime } from './entry-parts'

/** The newest commits read per branch: a branch of thousands is history, not a timeline. */
const COMMITS_PER_BRANCH = 2000
const FIELD = '\x1f'
const MERGES_PREFIX = 'refs/agent-teams/merges/'

export interface TeammateBranch {
  readonly name: string
  readonly worktree: MemberWorktree
}

/**
 * Commits on each teammate's branch `team/<name>` since its base, and the merges the app made
 * (its `refs/agent-teams/merges/<name>/<commit>` refs that still hold what the ref ledger says
 * the app set), through the app's hardened git only. Anything git refuses is a problem.
 */
export async function gitEntries(
  worktrees: Worktrees,
  branches: readonly TeammateBranch[],
): Promise<{ entries: TimelineEntry[]; problems: string[] }> {
  const problems: string[] = []
  const read = await Promise.all([
    ...branches.map((branch) => commitsOf(worktrees, branch, problems)),
    mergesOf(worktrees, problems),
  ])
  return { entries: read.flat(), problems }
}

async function commitsOf(
  worktrees: Worktrees,
  branch: TeammateBranch,
  problems: string[],
): Promise<TimelineEntry[]> {
  const ref = `refs/heads/${teammateBranch(branch.name)}`
  const args = [
    'log',
    '--first-parent',
    `--max-count=${COMMITS_PER_BRANCH}`,
    `--format=%H${FIELD}%ct${FIELD}%s`,
    `${branch.worktree.base_commit}..${ref}`,
    '--',
  ]
  let output: string
  try {
    const result = await worktrees.git.run(worktrees.workspace, args)
    // A branch removed (or never made) has no commits to show.
    if (result.status !== 0) return []
    output = result.stdout
  } catch (error) {
    problems.push(`${teammateBranch(branch.name)}: ${(error as Error).message}`)
    return []
  }
  const entries: TimelineEntry[] = []
  for (const line of output.split('\n')) {
    const [commit = '', time = '', subject = ''] = line.split(FIELD)
    const at = Number(time)
    if (!/^[0-9a-f]{40,64}$/.test(commit) || !isTimelineTime(at)) continue
    entries.push(
      entry({
        id: entryId('commit', branch.name, commit),
        at,
        kind: 'commit',
        agent: branch.name,
        summary: `${commit.slice(0, 8)} on ${teammateBranch(branch.name)}: ${subject}`,
        source: { type: 'commit', commit, branch: teammateBranch(branch.name) },
      }),
    )
  }
  return entries.reverse()
}

async function mergesOf(worktrees: Worktrees, problems: string[]): Promise<TimelineEntry[]> {
  const format = `--format=%(refname)${FIELD}%(objectname)${FIELD}%(committerdate:unix)${FIELD}%(subject)`
  let output: string
  try {
    const result = await worktrees.git.run(worktrees.workspace, [
      'for-each-ref',
      format,
      MERGES_PREFIX,
    ])
    if (result.status !== 0) return []
    output = result.stdout
  } catch (error) {
    problems.push(`merges: ${(error as Error).message}`)
    return []
  }
  const entries: TimelineEntry[] = []
  for (const line of output.split('\n')) {
    if (line === '') continue
    const [ref = '', commit = '', time = '', subject = ''] = line.split(FIELD)
    const [name = '', recorded = ''] = ref.slice(MERGES_PREFIX.length).split('/')
    const at = Number(time)
    // Only what the app set and nobody moved since: a ref made by hand is not the app's merge.
    if (!isValidName(name) || recorded !== commit || worktrees.ledger.get(ref) !== commit) {
      problems.push(`${ref}: not a merge the app recorded (ignored)`)
      continue
    }
    if (!isTimelineTime(at)) continue
    entries.push(
      entry({
        id: entryId('merge', name, commit),
        at,
        kind: 'merge',
        agent: name,
        summary: `${teammateBranch(name)} merged (${commit.slice(0, 8)}): ${subject}`,
        source: { type: 'commit', commit, branch: teammateBranch(name) },
      }),
    )
  }
  return entries
}
