import { NO_USAGE } from '../../shared/usage'
import type { AgentView, TeamSnapshot } from '../../shared/contract'
import { engineOf } from '../../shared/engine'
import { LEAD } from '../../shared/names'
import { NO_BUDGET } from '../../shared/budget'
import type { StatusFacts } from '../../shared/roster'
import type { TeamHost } from '../host/host'
import { requestView } from '../protocols/service'
import { countPending } from '../mailbox/inbox-feed'

/** An agent's last status, in words and as data, from its status events. */
export interface StatusReason extends StatusFacts {
  readonly reason: string
}

/** What the app knows beside the host: the folder, the roster's problem, reasons and alert. */
export interface SnapshotSources {
  readonly workspace: string
  readonly host: TeamHost | null
  readonly rosterProblem: TeamSnapshot['rosterProblem']
  /** Each agent's last status reason and cause, from its status events. */
  readonly reasons: ReadonlyMap<string, StatusReason>
  readonly alert: TeamSnapshot['alert']
  readonly offline: boolean
}

/** The whole team as the UI first shows it; an idle lead alone when no team could open. */
export async function teamSnapshot(sources: SnapshotSources): Promise<TeamSnapshot> {
  const { host, workspace } = sources
  const none = NO_BUDGET
  if (!host) {
    const idle: AgentView = {
      name: LEAD,
      role: 'lead',
      status: 'idle',
      statusReason: null,
      statusCause: null,
      errorCode: null,
      running: false,
      usage: NO_USAGE,
      usageByModel: [],
      model: null,
      thinking: null,
      pending: 0,
      rounds: 0,
      budget: none,
    }
    return {
      workspace,
      teamName: '',
      lead: idle,
      members: [],
      defaultModel: null,
      rosterProblem: sources.rosterProblem,
      requests: [],
      teamBudget: none,
      offline: sources.offline,
      alert: null,
      mcp: null,
      trust: null,
    }
  }
  const roster = host.roster()
  const view = async (agent: (typeof roster)['lead']): Promise<AgentView> => ({
    name: agent.name,
    role: agent.role,
    status: agent.status,
    running: agent.running,
    usage: agent.usage,
    usageByModel: agent.usageByModel,
    rounds: agent.rounds,
    budget: host.budgetOf(agent.name),
    statusReason: sources.reasons.get(agent.name)?.reason ?? null,
    statusCause: sources.reasons.get(agent.name)?.cause ?? null,
    errorCode: sources.reasons.get(agent.name)?.errorCode ?? null,
    ...host.modelChoice(agent.name),
    pending: await countPending(host.team.mailbox, agent.name),
    profile: host.permission(agent.name).profile.name,
    approval: host.permission(agent.name).approval,
    // The lead is not a member: it runs builtin.
    engine: engineOf(host.team.roster.find(agent.name)),
  })
  const members = await Promise.all(roster.members.map((member) => view(member)))
  return {
    workspace,
    teamName: roster.team_name,
    lead: await view(roster.lead),
    members,
    defaultModel: host.defaultModel,
    rosterProblem: sources.rosterProblem,
    requests: host.protocolRequests().map(requestView),
    teamBudget: host.budgetOf(null),
    offline: sources.offline,
    alert: sources.alert,
    tasks: host.tasks.view(),
    mcp: host.mcp.state(),
    trust: host.trust.view(),
    needsYou: host.needsYou.entries(),
  }
}
