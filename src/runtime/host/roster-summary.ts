import { NO_USAGE } from '../../shared/usage'
import type { AgentView } from '../../shared/contract'
import { LEAD } from '../../shared/names'
import type { MemberStatus } from '../../shared/roster'
import type { TeamAgent } from '../agents/team-agent'
import type { Team } from '../team/team'

/** An agent in the roster summary: the part of the contract's agent view the runtime knows. */
export type AgentSummary = Readonly<
  Pick<AgentView, 'name' | 'role' | 'status' | 'running' | 'usage' | 'usageByModel' | 'rounds'>
>

export interface RosterSummary {
  readonly team_name: string
  readonly lead: AgentSummary
  readonly members: AgentSummary[]
}

/** The lead and every member with its status and what it spent (none for one not loaded). */
export function summarizeRoster(team: Team, agents: ReadonlyMap<string, TeamAgent>): RosterSummary {
  const summary = (name: string, role: string, status: MemberStatus): AgentSummary => {
    const agent = agents.get(name)
    return {
      name,
      role,
      status,
      running: agent?.isRunning ?? false,
      usage: agent?.usage ?? NO_USAGE,
      usageByModel: agent?.usageByModel ?? [],
      rounds: agent?.roundsUsed ?? 0,
    }
  }
  return {
    team_name: team.roster.snapshot.team_name,
    lead: summary(LEAD, 'lead', team.leadStatus),
    members: team.roster.members.map((member) => summary(member.name, member.role, member.status)),
  }
}
