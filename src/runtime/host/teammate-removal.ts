import { TeamError } from '../../shared/errors'
import { LEAD } from '../../shared/names'
import { teammateBranch, type BranchAction } from '../../shared/worktree'
import type { TeamAgent } from '../agents/team-agent'
import type { Team } from '../team/team'
import type { TeamWorktrees } from '../git/team-worktrees'

/**
 * Takes a teammate off the roster: its worktree first (which refuses, with what there is, when
 * unmerged work has no say), then its loop, then its roster entry. Its transcript and inbox
 * stay in `.team/`, so a later spawn of the same name has its memory back.
 */
export async function removeTeammate(
  parts: { team: Team; worktrees: TeamWorktrees; agents: Map<string, TeamAgent> },
  name: string,
  branch: BranchAction | undefined,
): Promise<string> {
  const member = parts.team.roster.find(name)
  if (name === LEAD || !member)
    throw new TeamError('unknown-agent', `"${name}" is not a teammate on the roster.`)
  if (member.status === 'working')
    throw new TeamError(
      'member-working',
      `"${name}" is working right now; stop it or wait until it is idle, then remove it.`,
    )
  const note = await removeWorktree(parts.worktrees, name, branch)
  const agent = parts.agents.get(name)
  if (agent) {
    parts.agents.delete(name)
    await agent.close()
  }
  parts.team.updateRoster((draft) => {
    draft.members = draft.members.filter((candidate) => candidate.name !== name)
  })
  return `Removed ${name} from the team${note === '' ? '' : `; ${note}`}.`
}

/**
 * Removes `name`'s worktree when the teammate leaves. Work its base does not hold is never
 * deleted silently: without an action the removal is refused, saying what there is. Returns
 * what became of the branch ('' when it had none).
 */
async function removeWorktree(
  worktrees: TeamWorktrees,
  name: string,
  action: BranchAction | undefined,
): Promise<string> {
  const { git } = worktrees
  const record = worktrees.record(name)
  const branch = teammateBranch(name)
  await worktrees.settled(name).catch(() => undefined)
  if (
    record === null &&
    (action === 'keep' || action === undefined || !(await git.hasBranch(name)))
  )
    return ''
  const base = record?.base ?? (await git.currentBranch()) ?? 'HEAD'
  const unmerged = (await git.available()) && (await git.hasUnmergedWork(name, base))
  if (unmerged && action === undefined)
    throw new TeamError(
      'unmerged-work',
      `${name}'s branch ${branch} has work that ${base} does not have. ` +
        'Choose what to do with it: keep the branch, merge it, or delete it.',
    )
  if (action === 'merge' && unmerged) {
    const result = await worktrees.merge(name, {})
    if (result.outcome !== 'merged' && result.outcome !== 'nothing')
      throw new TeamError(
        'unmerged-work',
        result.outcome === 'conflict'
          ? `${branch} conflicts with ${base} in ${result.files.join(', ')}; nothing was removed. Resolve it, or keep the branch.`
          : result.outcome === 'refused'
            ? `${result.reason} Nothing was removed.`
            : `Merging ${branch} changes ${result.files.join(', ')}, which change how git or the app behaves: review and Accept it in Changes first. Nothing was removed.`,
      )
  }
  await git.remove(name, { deleteBranch: action === 'delete' || action === 'merge' })
  worktrees.touched(name)
  if (action === 'keep' || (action === undefined && (await git.hasBranch(name))))
    return `its branch ${branch} is kept`
  return action === 'merge'
    ? `${branch} was merged into ${base} and deleted`
    : `${branch} was deleted`
}
