import { TeamError } from '../../shared/errors'
import { LEAD } from '../../shared/names'
import type { BranchAction } from '../../shared/worktree'
import type { Agent } from './agents/agent'
import type { Team } from './team'
import type { TeamWorktrees } from './team-worktrees'

/**
 * Takes a teammate off the roster: its worktree first (which refuses, with what there is, when
 * unmerged work has no say), then its loop, then its roster entry. Its transcript and inbox
 * stay in `.team/`, so a later spawn of the same name has its memory back.
 */
export async function removeTeammate(
  parts: { team: Team; worktrees: TeamWorktrees; agents: Map<string, Agent> },
  name: string,
  branch: BranchAction | undefined,
): Promise<string> {
  const member = parts.team.roster.find(name)
  if (name === LEAD || !member)
    throw new TeamError('unknown-recipient', `"${name}" is not a teammate on the roster.`)
  if (member.status === 'working')
    throw new TeamError(
      'member-working',
      `"${name}" is working right now; stop it or wait until it is idle, then remove it.`,
    )
  const note = await parts.worktrees.remove(name, branch)
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
