import type { ModelChoice } from '../../shared/model-choice'
import { LEAD } from '../../shared/names'
import { teammateBranch } from '../../shared/worktree'
import { TeamError } from '../../shared/errors'
import { ENGINE_LABELS, engineOf } from '../../shared/engine'
import { Agent } from '../agents/agent'
import type { AgentOptions, AgentTools, PauseCause } from '../agents/agent-types'
import type { TeamAgent } from '../agents/team-agent'
import { ClaudeCodeAgent, type ClaudeCodePorts } from '../engines/claude-code/agent'
import { DEFAULT_COMPACTION_POLICY, type CompactionPolicy } from '../agents/compaction'
import { DEFAULT_TURN_POLICY, type TurnPolicy } from '../agents/model-turn'
import { leadSystemPrompt, teammateSystemPrompt } from '../agents/prompts'
import type { Clock } from '../system/clock'
import type {
  GatheredInstructions,
  InstructionScope,
  ProjectInstructions,
} from '../instructions/project-instructions'
import type { ModelClient } from '../model/client'
import { DEFAULT_CONTEXT_WINDOW, knownContextWindow } from '../model/context-window'
import type { NeedsYou } from '../needs-you/queue'
import type { AgentPermission } from '../permissions/agent-permissions'
import { createToolPolicy } from '../permissions/tool-policy'
import type { Protocols } from '../protocols/service'
import type { Team } from '../team/team'
import { basicTools, basicToolsWith, type BashToolOptions } from '../tools/basic-tools'
import { askUserTool } from '../tools/ask-user-tool'
import { protocolTools } from '../tools/protocol-tools'
import { searchTools } from '../tools/search-tools'
import { teamTools, type TeamOperations } from '../tools/team-tools'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { TeamCheckpoints } from '../undo/team-checkpoints'
import { worktreeSummary } from './worktree-summary'
import { taskTools, type TaskOperations } from '../tools/task-tools'
import { currentTaskNote } from '../tasks/task-text'
import type { Tool } from '../tools/types'

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
  /** The workspace's instruction files and the team note, read before every call. */
  readonly instructions: ProjectInstructions
  /**
   * Where an agent works (a subfolder, a worktree); its instruction files are those on the path
   * from the workspace root to there. Default: the workspace itself.
   */
  readonly workingFolder?: (name: string) => Omit<InstructionScope, 'workspace'>
  /** The teammates' worktrees: where each one's tools work, and what it changed. */
  readonly worktrees: TeamWorktrees
  /** Every agent's checkpoints (undo); absent: none are taken. */
  readonly checkpoints?: TeamCheckpoints
  /** bash's sandbox rules and approval hooks for this team; absent: the defaults. */
  readonly bash?: BashToolOptions
  /** The task board's tools. */
  readonly tasks: TaskOperations
  /** The MCP tools agent `name` may use, from the servers running now. */
  readonly mcpTools?: (name: string) => readonly Tool[]
  /** Resolves once MCP servers still starting are up (or failed): their tools are then known. */
  readonly mcpStarted?: (signal: AbortSignal) => Promise<void>
  /** The Needs-you queue: approvals and questions wait there for the person. */
  readonly needsYou: NeedsYou
  /** An agent's profile and approval mode, as they apply now. */
  readonly permission: (name: string) => AgentPermission
  /** An agent's own folder (its worktree) where ask mode lets writes run; null: none. */
  readonly ownFolder?: (name: string) => string | null
  /** What a Claude Code teammate needs beyond the ports (`engines/claude-code/ports.ts`). */
  readonly claudeCode?: (name: string) => ClaudeCodePorts
}

/** The instruction files `name` gets, as read now (its next call gets the same). */
export function instructionsFor(name: string, deps: AgentDependencies): GatheredInstructions {
  const endpoint = deps.model().endpoint
  const model = deps.modelChoice(name).model ?? endpoint.model
  const windowTokens = endpoint.contextWindow ?? knownContextWindow(model) ?? DEFAULT_CONTEXT_WINDOW
  return deps.instructions.gather(
    { workspace: deps.team.paths.workspace, ...deps.workingFolder?.(name) },
    windowTokens,
  )
}

/**
 * A new agent `name` (the lead or a roster member), its ports built from the host's parts, run
 * by the engine its roster entry names (the lead always by the built-in one).
 */
export function createAgent(name: string, deps: AgentDependencies): TeamAgent {
  const options = agentOptions(name, deps)
  const engine = name === LEAD ? 'builtin' : engineOf(deps.team.roster.find(name))
  if (engine === 'builtin') return new Agent(options)
  if (deps.claudeCode === undefined)
    throw new TeamError('engine-unavailable', `This host cannot run ${name}'s engine, ${engine}.`)
  // Its team tools only: Claude Code brings its own file tools and bash, which run sandboxed.
  const tools = { ...options.tools, builtIn: teamToolsOf(name, deps) }
  return new ClaudeCodeAgent({ ...options, tools }, deps.claudeCode(name))
}

/** The six ports of agent `name`. */
function agentOptions(name: string, deps: AgentDependencies): AgentOptions {
  const { team, protocols } = deps
  return {
    identity: {
      name,
      systemPrompt: () => systemPrompt(name, deps),
      roleAndTeam: () => ({
        role: name === LEAD ? 'lead' : (team.roster.find(name)?.role ?? 'teammate'),
        team: team.roster.snapshot.team_name,
      }),
      openRequests: () => openRequests(protocols, name),
    },
    model: {
      client: deps.model,
      modelId: () => deps.modelChoice(name).model ?? deps.model().endpoint.model,
      thinkingBudget: () => deps.modelChoice(name).thinking ?? undefined,
      contextWindow: () => deps.model().endpoint.contextWindow,
      turnPolicy: deps.turnPolicy ?? DEFAULT_TURN_POLICY,
      compaction: deps.compaction ?? DEFAULT_COMPACTION_POLICY,
      keyRefused: deps.reportAuthFailure,
    },
    mail: {
      paths: team.paths,
      mailbox: team.mailbox,
      signalled: deps.mailSignalled,
      judge: (message) => protocols.judge(name, message),
    },
    tools: agentTools(name, deps),
    guard: {
      roundCap: deps.roundCap,
      pauseReason: () => deps.pauseReason(name),
      planGate: () => (name === LEAD ? null : protocols.planGate(name)),
      toolPolicy: createToolPolicy({
        agent: name,
        workspace: team.paths.workspace,
        permission: () => deps.permission(name),
        queue: deps.needsYou,
        ownFolder: () => deps.ownFolder?.(name) ?? null,
      }),
    },
    events: {
      emit: (event) => team.publish(event),
      setStatus: (status, reason, facts) => team.setStatus(name, status, reason, facts),
    },
    clock: deps.clock,
  }
}

/** The team's own tools of an agent's kind: messaging, the protocols and the board. */
function teamToolsOf(name: string, deps: AgentDependencies): Tool[] {
  const messaging = teamTools(teamOperations(deps))
  const protocol = protocolTools(deps.protocols)
  const board = taskTools(deps.tasks)
  return name === LEAD
    ? [...messaging.lead, ...protocol.lead, ...board.lead]
    : [...messaging.teammate, ...protocol.teammate, ...board.teammate]
}

/** The tools port: every tool of the agent's kind, the MCP tools, and where they work. */
function agentTools(name: string, deps: AgentDependencies): AgentTools {
  const isLead = name === LEAD
  const { worktrees, needsYou } = deps
  return {
    // Every tool the agent's kind has; its profile decides, call by call, which are offered.
    builtIn: [
      ...(deps.bash === undefined ? basicTools : basicToolsWith(deps.bash)),
      ...searchTools,
      askUserTool(needsYou),
      ...teamToolsOf(name, deps),
    ],
    more: () => deps.mcpTools?.(name) ?? [],
    started: async (signal) => deps.mcpStarted?.(signal),
    // The lead's tool calls wait for its queued checkpoint too (it works in the workspace).
    root: async () => {
      await worktrees.settled(name)
      return isLead ? deps.team.paths.workspace : worktrees.toolRoot(name)
    },
    checkpoint: (request) => deps.checkpoints?.take(name, request) ?? Promise.resolve(),
    stillWaiting: (call) =>
      needsYou.pending().some((entry) => entry.agent === name && entry.tool_use_id === call.id),
  }
}

/**
 * Its system prompt, read per call: an edited AGENTS.md or note reaches the next call, and an
 * unchanged one keeps the system prompt (the cached prefix) the same.
 */
function systemPrompt(name: string, deps: AgentDependencies): string {
  const { team } = deps
  const member = team.roster.find(name)
  const base =
    name === LEAD
      ? leadSystemPrompt({
          workspace: team.paths.workspace,
          teamName: team.roster.snapshot.team_name,
        })
      : teammateSystemPrompt({
          name,
          role: member?.role ?? 'teammate',
          workspace: deps.worktrees.promptRoot(name),
          branch: member?.worktree ? teammateBranch(name) : undefined,
        })
  const instructions = instructionsFor(name, deps).text
  return instructions === '' ? base : `${base}\n\n${instructions}`
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
    listTeammates: async () => {
      const members = team.roster.members
      if (members.length === 0) return 'No teammates.'
      const { tasks } = team.tasks.list()
      const lines = [`Team: ${team.roster.snapshot.team_name}`]
      for (const member of members) {
        const model = deps.modelChoice(member.name).model
        const worktree = await worktreeSummary(deps.worktrees, member.name)
        const engine = engineOf(member) === 'builtin' ? '' : `, ${ENGINE_LABELS[engineOf(member)]}`
        lines.push(
          `  ${member.name} (${member.role}${model === null ? '' : `, ${model}`}${engine}): ${member.status}${currentTaskNote(member.name, tasks)}${worktree}`,
        )
      }
      return lines.join('\n')
    },
    send: (request) => team.send(request),
    broadcast: (request) => team.broadcast(request),
  }
}
