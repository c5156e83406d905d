import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import {
  assertModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import { LEAD, USER, assertSpawnableName } from '../../shared/names'
import type { NeedsYouAnswer, NeedsYouEntry } from '../../shared/needs-you'
import type { TranscriptRecord } from '../../shared/transcript'
import { AuthAlert } from './auth-alert'
import {
  createAgent,
  DEFAULT_ROUND_CAP,
  instructionsFor,
  type AgentDependencies,
} from './agent-factory'
import type { Agent } from './agents/agent'
import type { PauseCause } from './agents/agent-types'
import type { CompactionPolicy } from './agents/compaction'
import type { Budget } from './agents/guards'
import type { TurnPolicy } from './agents/model-turn'
import type { PriceOverrides } from '../../shared/prices'
import { assertKnownAgent } from './known-agent'
import { randomIds, systemClock, type Clock, type IdSource } from './clock'
import { runControlCommand } from './control-commands'
import type { InboxPage } from './mailbox/mailbox'
import type { Position } from './mailbox/position'
import type { InstructionFileView } from '../../shared/instructions'
import { ProjectInstructions, type InstructionScope } from './instructions/project-instructions'
import type { TeamNote } from './instructions/team-note'
import { ModelClient, type ModelEndpoint } from './model/client'
import { describeModelChange, readModelChoice, writeModelChoice } from './model-choices'
import { mirrorEvent, reconcileMirrors, teamQueue } from './needs-you/mirror'
import type { NeedsYou } from './needs-you/queue'
import { permissionOf, type AgentPermission } from './permissions/agent-permissions'
import { ProfileStore } from './permissions/profile-store'
import {
  assertProfileChange,
  setProfileChoice,
  type ProfileChoiceChange,
} from './permissions/profile-choice'
import { Protocols } from './protocols/service'
import { ProtocolStore, type ProtocolRequest } from './protocols/store'
import { summarizeRoster, type RosterSummary } from './roster-summary'
import {
  assertSpawnable,
  enrollSpawn,
  spawnSummary,
  spawnTask,
  type SpawnRequest,
} from './spawn-request'
import { Team, type ControlCommand, type Disposable, type TeamListener } from './team'
import { mayUseServer } from './mcp/agent-servers'
import { McpServers, type McpOptions } from './mcp/servers'
import { TeamBudgets } from './team-budgets'
import { TeamWorktrees } from './team-worktrees'
import { removeTeammate } from './teammate-removal'
import type { BranchAction } from '../../shared/worktree'
import { readTeamSandbox } from './team-sandbox'
import type { BashSandboxHooks } from './tools/basic-tools'
import { defaultBashSandbox } from './tools/bash-sandbox'
import { TeamTasks } from './tasks/team-tasks'
import { sandboxQueueHooks } from './needs-you/sandbox-queue'
import { completeReviewedOnMerge } from './tasks/review-merge'
import { TASK_BOARD_SENDER, TaskAutomation, autoClaimOf } from './tasks/task-automation'

export { DEFAULT_ROUND_CAP }
export type { AgentSummary } from './roster-summary'

export interface HostOptions {
  readonly workspace: string
  readonly endpoint: ModelEndpoint
  readonly clock?: Clock
  readonly ids?: IdSource
  /** Model calls per activation before an agent goes idle (default 50). */
  readonly roundCap?: number
  /** Whether teammates' messages wake the lead by themselves (default true). */
  readonly leadWakesOnMessages?: boolean
  readonly watch?: boolean
  /** Retries, back-off and the stall timeout of model calls. */
  readonly turnPolicy?: TurnPolicy
  /** Budgets that apply where config.json sets none (default: none). */
  readonly budgets?: { agent?: Budget; team?: Budget }
  /** When agents compact their conversations (default: at 75 % of the window). */
  readonly compaction?: CompactionPolicy
  /** The person's prices per model (settings); Claude's list prices apply to the rest. */
  readonly prices?: PriceOverrides
  /** Where each agent works, for its instruction files (default: the workspace). */
  readonly workingFolder?: (name: string) => Omit<InstructionScope, 'workspace'>
  /**
   * Where the "Needs you" queue connects to bash's sandbox: what it blocked, and commands
   * that would run unsandboxed (no sandbox on this machine). Absent: blocks are only told to
   * the model and unsandboxed commands run behind the blocklist.
   */
  readonly sandboxHooks?: BashSandboxHooks
  /** Folders bash may never read, beside the default settings folder: the app's config. */
  readonly privateFolders?: readonly string[]
  /** MCP servers: where trust is kept, and whether this run trusts them without asking. */
  readonly mcp?: McpOptions
}

/**
 * The runtime's one surface: commands (chat, spawn, send, broadcast, stop, resume, shutdown,
 * plan review, budgets), queries (roster, transcripts, inboxes, protocol requests) and the
 * event stream. The CLI, the Electron IPC adapter and the browser-mode server use only this.
 */
export class TeamHost {
  private readonly agents = new Map<string, Agent>()
  private model: ModelClient
  private readonly subscription: Disposable
  private readonly protocols: Protocols
  private readonly budgets: TeamBudgets
  private readonly agentDependencies: AgentDependencies
  private readonly authAlert: AuthAlert
  /** The teammates' git worktrees and the review loop over their branches. */
  readonly worktrees: TeamWorktrees
  /** The task board: the contract's task commands, the agents' task tools. */
  readonly tasks: TeamTasks
  private readonly taskAutomation: TaskAutomation
  /** The team's MCP servers (`.mcp.json`, `.team/mcp.json`): trust, state, tools. */
  readonly mcp: McpServers
  /** Everything that waits on the person: approvals, questions, plans, pauses, errors, stalls. */
  readonly needsYou: NeedsYou
  readonly profiles: ProfileStore
  private closed = false

  private constructor(
    readonly team: Team,
    private readonly options: HostOptions,
  ) {
    this.model = new ModelClient(options.endpoint)
    this.authAlert = new AuthAlert((event) => team.publish(event))
    this.worktrees = new TeamWorktrees({
      workspace: team.paths.workspace,
      roster: () => team.roster.snapshot,
      updateRoster: (change) => team.updateRoster(change),
      sendToTeammate: (to, content, extra) => this.send({ from: USER, to, content, extra }),
    })
    const clock = options.clock ?? systemClock
    this.protocols = new Protocols({
      team,
      store: ProtocolStore.open(team.paths, clock),
      ids: options.ids ?? randomIds(clock),
      shutDownAfterStep: (name, reason) => this.agents.get(name)?.shutdownAfterThisStep(reason),
    })
    this.mcp = new McpServers(team.paths, options.mcp ?? { trustStore: null }, (state) =>
      team.publish({ type: 'mcp-changed', state }),
    )
    this.profiles = ProfileStore.of(team.paths)
    this.needsYou = teamQueue(team, clock, options.ids ?? randomIds(clock), {
      reviewPlan: (id, approve, feedback) => this.reviewPlan(id, approve, feedback),
      resume: (name) => this.resume(name),
    })
    this.budgets = new TeamBudgets(team.roster, options.budgets, options.prices, () =>
      this.agents.values(),
    )
    this.tasks = new TeamTasks(team)
    completeReviewedOnMerge(this.worktrees, this.tasks)
    this.taskAutomation = new TaskAutomation({
      tasks: this.tasks,
      members: () => team.roster.members,
      autoClaims: (name) => autoClaimOf(team.roster.find(name)),
      send: (request) => team.send(request),
      publish: (event) => team.publish(event),
      giveTask: (name, text) => this.agent(name).addUserTurn(TASK_BOARD_SENDER, text),
    })
    this.agentDependencies = {
      team,
      tasks: this.tasks.toolOperations(),
      protocols: this.protocols,
      clock,
      roundCap: options.roundCap ?? DEFAULT_ROUND_CAP,
      turnPolicy: options.turnPolicy,
      compaction: options.compaction,
      // Other programs' appends are reported by the watcher only when there is one.
      mailSignalled: options.watch !== false,
      model: () => this.model,
      modelChoice: (name) => this.modelChoice(name),
      pauseReason: (name) => this.pauseReason(name),
      reportAuthFailure: (message) => this.authAlert.report(message),
      spawn: (request) => this.spawn({ ...request, by: LEAD }),
      instructions: new ProjectInstructions(team.paths.root),
      // A teammate in its own worktree reads the instruction files of that checkout.
      workingFolder:
        options.workingFolder ??
        ((name) => {
          const root = this.worktrees.toolRoot(name)
          return root === team.paths.workspace ? {} : { workingFolder: root, workingRoot: root }
        }),
      worktrees: this.worktrees,
      bash: {
        sandbox: {
          teamFolder: team.paths.root,
          allowedHosts: () => readTeamSandbox(team.paths).allowedHosts,
          unreadable: options.privateFolders,
          hooks:
            options.sandboxHooks ??
            sandboxQueueHooks(this.needsYou, team.paths, (agent, content) =>
              this.send({ to: agent, content }),
            ),
        },
      },
      mcpTools: (name) => this.mcp.tools((server) => mayUseServer(team.roster.find(name), server)),
      mcpStarted: (signal) => this.mcp.whenStarted(signal),
      needsYou: this.needsYou,
      permission: (name) => this.permission(name),
      // Ask mode lets writes run in a teammate's own worktree; elsewhere they wait.
      ownFolder: (name) => {
        const root = this.worktrees.toolRoot(name)
        return root === team.paths.workspace ? null : root
      },
    }
    this.subscription = team.subscribe((event) => this.route(event))
  }

  static async open(options: HostOptions): Promise<TeamHost> {
    const team = await Team.open({
      workspace: options.workspace,
      clock: options.clock,
      ids: options.ids,
      watch: options.watch,
    })
    // A damaged protocols file or cursor throws below: close what was opened (the workspace
    // lock, the watcher, agents already started) so that the caller can exit, not hang.
    let host: TeamHost | null = null
    try {
      host = new TeamHost(team, options)
      host.mcp.open()
      team.onControl((command) => host?.control(command))
      host.taskAutomation.releaseAtOpen(
        (name) => name === LEAD || team.roster.find(name) !== undefined,
      )
      reconcileMirrors(host.needsYou, team, host.protocolRequests())
      host.resumeAfterStart()
      return host
    } catch (error) {
      await (host ?? team).close()
      throw error
    }
  }

  subscribe(listener: TeamListener): Disposable {
    return this.team.subscribe(listener)
  }

  /** A new endpoint (settings changed): clears a refused-key alert and lets paused agents go on. */
  setEndpoint(endpoint: ModelEndpoint): void {
    this.model = new ModelClient(endpoint)
    this.authAlert.clear(this.agents.values())
  }

  /** The person's message to the lead. */
  chat(text: string): void {
    this.assertOpen()
    if (text.trim().length === 0) throw new TeamError('invalid-argument', 'The message is empty.')
    this.agent(LEAD).addUserTurn(USER, text)
  }

  spawn(request: SpawnRequest): string {
    this.assertOpen()
    assertSpawnableName(request.name)
    assertModelChoice(request)
    this.mcp.assertKnown(request.mcpServers)
    assertProfileChange(this.profiles, request)
    // Refused before anything is made (a worktree among them).
    assertSpawnable(this.team, request.name)
    const now = (this.options.clock ?? systemClock).now() / 1000
    const place = this.worktrees.atSpawn(request.name, request.worktree)
    enrollSpawn(
      { team: this.team, protocols: this.protocols, profiles: this.profiles },
      request,
      now,
      place.record,
    )
    this.worktrees.turnStarted(request.name)
    const planFirst = this.team.roster.find(request.name)?.plan_first === true
    this.agent(request.name).addUserTurn(request.by ?? LEAD, spawnTask(request, planFirst))
    const summary = spawnSummary(request, this.modelChoice(request.name))
    return place.note === '' ? summary : `${summary}; ${place.note}`
  }

  /**
   * Takes `name` off the roster (its transcript stays in `.team/`). Its worktree goes; its
   * branch is kept, merged or deleted as `branch` says, and unmerged work without a say is
   * refused (`unmerged-work`), never deleted. Returns what was done.
   */
  async removeTeammate(name: string, branch?: BranchAction): Promise<string> {
    this.assertOpen()
    return removeTeammate(
      { team: this.team, worktrees: this.worktrees, agents: this.agents },
      name,
      branch,
    )
  }

  send(request: {
    from?: string
    to: string
    content: string
    type?: string
    extra?: Record<string, unknown>
  }): MailMessage {
    this.assertOpen()
    return this.team.send({
      from: request.from ?? USER,
      to: request.to,
      content: request.content,
      type: request.type,
      extra: request.extra,
    })
  }

  broadcast(request: { from?: string; content: string }): MailMessage[] {
    this.assertOpen()
    return this.team.broadcast({ from: request.from ?? USER, content: request.content })
  }

  stop(name: string): void {
    this.existingAgent(name).stop()
  }

  /** Stops every agent (Ctrl+C in the CLI); transcripts stay valid for the API. */
  stopAll(): void {
    for (const agent of this.agents.values()) agent.stop()
  }

  /** Goes on after a pause, an error, a stall or a stop; a stalled stream is retried at once. */
  resume(name: string): void {
    this.assertOpen()
    this.existingAgent(name).resume()
  }

  /** Asks a teammate to shut down (the s10 handshake); returns the request's id. */
  requestShutdown(name: string, by = USER, id?: string): string {
    this.assertOpen()
    return this.protocols.askShutdown({ by, teammate: name, id }).id
  }

  reviewPlan(requestId: string, approve: boolean, feedback = '', by = USER): string {
    this.assertOpen()
    return this.protocols.reviewPlan({ by, requestId, approve, feedback })
  }

  protocolRequests(): ProtocolRequest[] {
    return this.protocols.requests()
  }

  /**
   * Changes an agent's model or thinking (the lead's too); the agent uses it from its next model
   * call, thinking from its next turn (the API wants one thinking setting per tool-use loop).
   */
  setModel(name: string, change: ModelChoiceChange): string {
    this.assertOpen()
    assertKnownAgent(name, this.team.roster)
    assertModelChoice(change)
    this.team.updateRoster((draft) => writeModelChoice(draft, name, change))
    return describeModelChange(name, this.modelChoice(name), this.defaultModel)
  }

  /** An agent's permission profile or approval mode (the lead's too), from its next tool call. */
  setProfile(name: string, change: ProfileChoiceChange): string {
    this.assertOpen()
    assertKnownAgent(name, this.team.roster)
    return setProfileChoice(this.team, this.profiles, name, change)
  }

  /** The person's answer to a Needs-you entry (approve, approve always, deny, answer). */
  answerNeedsYou(answer: NeedsYouAnswer): NeedsYouEntry {
    this.assertOpen()
    const { id, decision, text } = answer
    return this.needsYou.answer({ id, decision, ...(text === undefined ? {} : { text }) })
  }

  /** An agent's profile and approval mode as they apply now. */
  permission(name: string): AgentPermission {
    return permissionOf(this.team.roster.snapshot, this.profiles, name)
  }

  /** An agent's own model (null: the team's) and thinking budget (null: off), from config.json. */
  modelChoice(name: string): ModelChoice {
    return readModelChoice(this.team.roster, name)
  }

  /** The model of every agent without one of its own: the endpoint's. */
  get defaultModel(): string {
    return this.model.endpoint.model
  }

  /** The instruction files `name` is given (the team note among them), with their sizes. */
  instructionFiles(name: string): InstructionFileView[] {
    assertKnownAgent(name, this.team.roster)
    return instructionsFor(name, this.agentDependencies).files
  }

  /** The team note: every agent reads it before each call, so a change needs no restart. */
  get note(): TeamNote {
    return this.agentDependencies.instructions.note
  }

  /** Sets a budget (`name` null: the team's) and lets agents paused by budgets go on. */
  setBudget(name: string | null, budget: Budget): void {
    this.assertOpen()
    if (name !== null) assertKnownAgent(name, this.team.roster)
    this.budgets.set(name, budget, (change) => this.team.updateRoster(change))
  }

  /** New prices (settings changed): a dollar budget may now be enforceable, or not used up. */
  setPrices(prices: PriceOverrides): void {
    this.budgets.setPrices(prices)
    if (!this.closed) this.budgets.resumePaused()
  }

  budgetOf(name: string | null): Budget {
    return this.budgets.of(name)
  }

  roster(): RosterSummary {
    return summarizeRoster(this.team, this.agents)
  }

  transcript(
    name: string,
    page: { fromSeq?: number; limit?: number } = {},
  ): { records: TranscriptRecord[]; total: number } {
    return this.agent(name).store.page(page.fromSeq ?? 1, page.limit)
  }

  inbox(
    name: string,
    page: { from?: Position; limit?: number; pendingOnly?: boolean } = {},
  ): Promise<InboxPage> {
    return this.team.mailbox.peek(name, page)
  }

  /** Resolves once no agent is running (and none was woken meanwhile), with the roster written. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const running = [...this.agents.values()].filter((agent) => agent.isRunning)
      if (running.length === 0) {
        if (!this.closed) this.team.flushStatuses()
        return
      }
      await Promise.all(running.map((agent) => agent.settled()))
    }
  }

  /** Agents whose last activation ended in error (for the CLI's exit code). */
  errors(): { agent: string; message: string }[] {
    return [...this.agents.values()].flatMap((agent) =>
      agent.lastActivation.kind === 'error'
        ? [{ agent: agent.name, message: agent.lastActivation.message }]
        : [],
    )
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.subscription.dispose()
    this.taskAutomation.close()
    await Promise.all([...this.agents.values()].map((agent) => agent.close()))
    this.agents.clear()
    await this.mcp.close()
    await this.team.close()
    // The sandbox's proxies would keep a CLI process alive until their idle stop; another
    // team's running command keeps them up (close waits for no one and stops only when idle).
    await defaultBashSandbox.close()
  }

  /** After a start: every agent with something pending (mail, an unanswered turn) goes on. */
  private resumeAfterStart(): void {
    this.agent(LEAD).wake()
    for (const member of this.team.roster.members) {
      // A shut-down teammate is loaded (its usage and transcript show) but not woken.
      const agent = this.agent(member.name)
      if (member.status !== 'shutdown') agent.wake()
    }
  }

  /** `.team/control.jsonl`: stop and resume from another process (`agent-teams stop`). */
  private control(command: ControlCommand): void {
    if (this.closed) return
    runControlCommand(this, command, (event) => this.team.publish(event))
  }

  private route(event: TeamEvent): void {
    if (this.closed) return
    if (event.type === 'tool-call-finished') this.worktrees.touched(event.agent)
    else if (event.type === 'tasks-changed')
      this.worktrees.taskMarks.boardChanged(event.board.tasks)
    else if (event.type === 'agent-status-changed' && event.name !== LEAD) {
      // A turn that starts from rest: its "last turn" diff is taken from here.
      if (
        event.status === 'working' &&
        event.previous !== 'waiting' &&
        event.previous !== 'working'
      )
        this.worktrees.turnStarted(event.name)
      else this.worktrees.touched(event.name)
    }
    this.taskAutomation.handle(event)
    mirrorEvent(this.needsYou, event)
    if (event.type === 'message-sent') this.mailArrived(event.message.to, event.message.from)
    else if (event.type === 'inbox-changed' && event.change !== 'removed')
      this.mailArrived(event.name, null)
  }

  private mailArrived(name: string, from: string | null): void {
    // Marked whether or not it wakes the agent: the mail is read at its next look either way.
    this.agents.get(name)?.noteMail()
    if (name === LEAD) {
      if (this.options.leadWakesOnMessages !== false || from === USER) this.agent(LEAD).wake()
      return
    }
    const member = this.team.roster.find(name)
    if (member && member.status !== 'shutdown') this.agent(name).wake()
  }

  private existingAgent(name: string): Agent {
    const agent = this.agents.get(name)
    if (!agent) throw new TeamError('unknown-recipient', `No agent "${name}" is running.`)
    return agent
  }

  private agent(name: string): Agent {
    const existing = this.agents.get(name)
    if (existing) return existing
    if (name !== LEAD && !this.team.roster.find(name))
      throw new TeamError('unknown-recipient', `"${name}" is not on the roster.`)
    const agent = createAgent(name, this.agentDependencies)
    this.agents.set(name, agent)
    return agent
  }

  private pauseReason(name: string): { cause: PauseCause; reason: string } | null {
    const refused = this.authAlert.pauseReason()
    if (refused !== null) return { cause: 'auth', reason: refused }
    // The model its next call goes to, found as the agent finds it (the lead's choice too).
    const next = this.modelChoice(name).model ?? this.model.endpoint.model
    const reason = this.budgets.problem(name, next)
    return reason === null ? null : { cause: 'budget', reason }
  }

  private assertOpen(): void {
    if (this.closed) throw new TeamError('invalid-argument', 'The team is closed.')
  }
}
