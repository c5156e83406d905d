import type { ModelChoice } from '../../shared/model-choice'
import { LEAD } from '../../shared/names'
import { Agent } from './agents/agent'
import type { PauseCause } from './agents/agent-types'
import type { CompactionPolicy } from './agents/compaction'
import type { TurnPolicy } from './agents/model-turn'
import { leadSystemPrompt, teammateSystemPrompt } from './agents/prompts'
import type { Clock } from './clock'
import type { ModelClient } from './model/client'
import type { NeedsYou } from './needs-you/queue'
import type { AgentPermission } from './permissions/agent-permissions'
import { createToolPolicy } from './permissions/tool-policy'
import type { Protocols } from './protocols/service'
import type { Team } from './team'
import { basicTools } from './tools/basic-tools'
import { askUserTool } from './tools/ask-user-tool'
import { protocolTools } from './tools/protocol-tools'
import { searchTools } from './tools/search-tools'
import { teamTools, type TeamOperations } from './tools/team-tools'

export const DEFAULT_ROUND_CAP = 50

/** What an agent is made of that the host owns: its team, settings and shared state. */
export interface AgentDependencies {
  readonly team: Team
  readonly protocols: Protocols
  readonly clock: Clock
  readonly roundCap: number
  readonly turnPolicy?: TurnPolicy
  readonly compaction?: CompactionPolicy
  /** Whether every append to an inbox is reported (there is a watcher of `.team/`). */
  readonly mailSignalled: boolean
  /** The current model client (settings may replace it between turns). */
  readonly model: () => ModelClient
  readonly modelChoice: (name: string) => ModelChoice
  readonly pauseReason: (name: string) => { cause: PauseCause; reason: string } | null
  readonly reportAuthFailure: (message: string) => void
  /** The lead's spawn_teammate tool. */
  readonly spawn: TeamOperations['spawn']
  /** The Needs-you queue: approvals and questions wait there for the person. */
  readonly needsYou: NeedsYou
  /** An agent's profile and approval mode, as they apply now. */
  readonly permission: (name: string) => AgentPermission
  /** An agent's own folder (its worktree) where ask mode lets writes run; null: none. */
  readonly ownFolder?: (name: string) => string | null
}

/** A new agent `name` (the lead or a roster member): its tools, prompt, identity and guards. */
export function createAgent(name: string, deps: AgentDependencies): Agent {
  const { team, protocols } = deps
  const isLead = name === LEAD
  const messaging = teamTools(teamOperations(deps))
  const protocol = protocolTools(protocols)
  return new Agent({
    name,
    kind: isLead ? 'lead' : 'teammate',
    paths: team.paths,
    mailbox: team.mailbox,
    clock: deps.clock,
    // Every tool the agent's kind has; its profile decides, call by call, which are offered.
    tools: [
      ...basicTools,
      ...searchTools,
      askUserTool(deps.needsYou),
      ...(isLead
        ? [...messaging.lead, ...protocol.lead]
        : [...messaging.teammate, ...protocol.teammate]),
    ],
    model: deps.model,
    modelId: () => deps.modelChoice(name).model ?? undefined,
    thinkingBudget: () => deps.modelChoice(name).thinking ?? undefined,
    system: () => {
      const member = team.roster.find(name)
      return isLead
        ? leadSystemPrompt({
            workspace: team.paths.workspace,
            teamName: team.roster.snapshot.team_name,
          })
        : teammateSystemPrompt({
            name,
            role: member?.role ?? 'teammate',
            workspace: team.paths.workspace,
          })
    },
    roundCap: deps.roundCap,
    turnPolicy: deps.turnPolicy,
    emit: (event) => team.publish(event),
    setStatus: (status, reason) => team.setStatus(name, status, reason),
    judge: (message) => protocols.judge(name, message),
    pauseReason: () => deps.pauseReason(name),
    planGate: () => (isLead ? null : protocols.planGate(name)),
    toolPolicy: createToolPolicy({
      agent: name,
      workspace: team.paths.workspace,
      permission: () => deps.permission(name),
      queue: deps.needsYou,
      ownFolder: () => deps.ownFolder?.(name) ?? null,
    }),
    stillWaiting: (call) =>
      deps.needsYou
        .pending()
        .some((entry) => entry.agent === name && entry.tool_use_id === call.id),
    onAuthFailure: (message) => deps.reportAuthFailure(message),
    mailSignalled: deps.mailSignalled,
    identity: () => ({
      role: isLead ? 'lead' : (team.roster.find(name)?.role ?? 'teammate'),
      team: team.roster.snapshot.team_name,
    }),
    openRequests: () => openRequests(protocols, name),
    contextWindow: () => deps.model().endpoint.contextWindow,
    compaction: deps.compaction,
  })
}

/** The pending protocol requests `name` asked or must answer, one line each. */
function openRequests(protocols: Protocols, name: string): string[] {
  return protocols
    .requests()
    .filter(
      (request) => request.status === 'pending' && (request.from === name || request.to === name),
    )
    .map(
      (request) =>
        `${request.kind} request ${request.id} from ${request.from} to ${request.to}, pending${request.plan ? `; plan: ${request.plan.slice(0, 500)}` : ''}`,
    )
}

function teamOperations(deps: AgentDependencies): TeamOperations {
  const { team } = deps
  return {
    spawn: deps.spawn,
    listTeammates: () => {
      const members = team.roster.members
      if (members.length === 0) return 'No teammates.'
      return [
        `Team: ${team.roster.snapshot.team_name}`,
        ...members.map((member) => {
          const model = deps.modelChoice(member.name).model
          return `  ${member.name} (${member.role}${model === null ? '' : `, ${model}`}): ${member.status}`
        }),
      ].join('\n')
    },
    send: (request) => team.send(request),
    broadcast: (request) => team.broadcast(request),
  }
}
