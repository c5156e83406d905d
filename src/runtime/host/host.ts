import { existsSync } from 'node:fs'
import { engineAvailability } from '../engines/availability'
import type { EngineAvailability } from '../../shared/engine'
import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import type { InstructionFileView } from '../../shared/instructions'
import type { MailMessage } from '../../shared/messages'
import {
  assertModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import { LEAD, USER } from '../../shared/names'
import type { NeedsYouAnswer, NeedsYouEntry } from '../../shared/needs-you'
import type { PriceOverrides } from '../../shared/prices'
import type { TranscriptRecord } from '../../shared/transcript'
import type { TrustView } from '../../shared/trust'
import type { BranchAction } from '../../shared/worktree'
import {
  createAgent,
  DEFAULT_ROUND_CAP,
  instructionsFor,
  type AgentDependencies,
} from './agent-factory'
import type { PauseCause } from '../agents/agent-types'
import type { Budget } from '../agents/guards'
import { AuthAlert } from './auth-alert'
import { systemClock } from '../system/clock'
import { runControlCommand } from './control-commands'
import { agentDependenciesFor } from './agent-dependencies'
import { LoadedAgents } from './loaded-agents'
import type { GitRefWatcher } from '../git/ref-watcher'
import { createFeatures } from './features'
import { routeEvent } from './routing'
import type { HostOptions } from './options'
import type { TeamNote } from '../instructions/team-note'
import { assertKnownAgent } from './known-agent'
import type { InboxPage } from '../mailbox/mailbox'
import type { Position } from '../mailbox/position'
import type { McpServers } from '../mcp/servers'
import { ModelClient, sameAccount, sameEndpoint, type ModelEndpoint } from '../model/client'
import { describeModelChange, readModelChoice, writeModelChoice } from './model-choices'
import { reconcileMirrors } from '../needs-you/mirror'
import type { NeedsYou } from '../needs-you/queue'
import { permissionOf, type AgentPermission } from '../permissions/agent-permissions'
import type { ProfileStore } from '../permissions/profile-store'
import { setProfileChoice, type ProfileChoiceChange } from '../permissions/profile-choice'
import type { Protocols } from '../protocols/service'
import type { ProtocolRequest } from '../protocols/store'
import { summarizeRoster, type RosterSummary } from './roster-summary'
import { spawnMember } from './spawn'
import type { SpawnRequest } from './spawn-request'
import { Team, type ControlCommand, type TeamListener } from '../team/team'
import type { Disposable } from '../../shared/disposable'
import type { TeamBudgets } from '../budgets/team-budgets'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { TeamCheckpoints } from '../undo/team-checkpoints'
import type { TeamUndo } from '../undo/team-undo'
import { hostUndo, undoFromControl } from './host-undo'
import { removeTeammate } from './teammate-removal'
import { defaultBashSandbox } from '../tools/bash-sandbox'
import type { WorkspaceTrust } from '../trust/workspace-trust'
import { HostTrust } from './trust'
import { writeTeamSandbox } from '../sandbox/team-hosts'
import { TeamPaths } from '../team/paths'
import type { TeamTasks } from '../tasks/team-tasks'
import type { TaskAutomation } from '../tasks/task-automation'
import type { TeamReactions } from '../reactions/team-reactions'
import { TeamSchedules } from '../schedules/team-schedules'
import type { RunOutcome } from '../schedules/scheduler'
import { applyTemplate } from '../templates/team-template'
import { randomIds } from '../system/clock'

export { DEFAULT_ROUND_CAP }
export type { AgentSummary } from './roster-summary'
export type { HostOptions } from './options'

/**
 * The runtime's one surface: commands (chat, spawn, send, broadcast, stop, resume, shutdown,
 * plan review, budgets), queries (roster, transcripts, inboxes, protocol requests) and the
 * event stream. The CLI, the Electron IPC adapter and the browser-mode server use only this.
 */
export class TeamHost {
  private readonly agents: LoadedAgents
  private model: ModelClient
  private readonly subscription: Disposable
  private readonly protocols: Protocols
  private readonly budgets: TeamBudgets
  private readonly agentDependencies: AgentDependencies
  private readonly authAlert: AuthAlert
  /** The teammates' git worktrees and the review loop over their branches. */
  readonly worktrees: TeamWorktrees
  /** Every agent's checkpoints (undo). */
  readonly checkpoints: TeamCheckpoints
  /** Undo of what an agent did, over its checkpoints. */
  readonly undo: TeamUndo
  /** The task board: the contract's task commands, the agents' task tools. */
  readonly tasks: TeamTasks
  private readonly taskAutomation: TaskAutomation
  private readonly reviewMerges: Disposable
  private readonly gitRefs: Promise<GitRefWatcher | null>
  /** The team's MCP servers (`.mcp.json`, `.team/mcp.json`): trust, state, tools. */
  readonly mcp: McpServers
  /** Everything that waits on the person: approvals, questions, plans, pauses, errors, stalls. */
  readonly needsYou: NeedsYou
  readonly profiles: ProfileStore
  /** Checks after commits, nudges, conflicts sent to their owners, folded wakes. */
  readonly reactions: TeamReactions
  /**
   * Whether the person trusts what the workspace grants. Until then its MCP servers, allowed
   * hosts, "approve always" rules and custom profiles do not apply, and only the person wakes
   * agents.
   */
  readonly trust: WorkspaceTrust
  private readonly hostTrust: HostTrust
  /** The team's scheduled runs, in a process that runs them (the app, `serve`); else null. */
  schedules: TeamSchedules | null = null
  private closed = false

  private constructor(
    readonly team: Team,
    private readonly options: HostOptions,
  ) {
    this.model = new ModelClient(options.endpoint)
    this.agents = new LoadedAgents(team, (name) => createAgent(name, this.agentDependencies))
    this.authAlert = new AuthAlert((event) => team.publish(event))
    this.hostTrust = new HostTrust(team, options, () => this.schedules?.trustChanged())
    this.trust = this.hostTrust.trust
    const features = createFeatures(
      team,
      options,
      {
        agents: () => this.agents.values(),
        loadedAgent: (name) => this.agents.get(name),
        agent: (name) => this.agents.load(name),
        sendToTeammate: (to, content, extra) => this.send({ from: USER, to, content, extra }),
        sendFromUser: (to, content) => this.send({ to, content }),
        reviewPlan: (id, approve, feedback) => this.reviewPlan(id, approve, feedback),
        resume: (name) => this.resume(name),
      },
      this.trust,
    )
    this.worktrees = features.worktrees
    this.checkpoints = features.checkpoints
    this.undo = hostUndo({
      team,
      worktrees: this.worktrees,
      checkpoints: this.checkpoints,
      dataFolder: options.dataFolder,
      agent: (name) => this.agents.load(name),
    })
    this.protocols = features.protocols
    this.mcp = features.mcp
    this.profiles = features.profiles
    this.needsYou = features.needsYou
    this.budgets = features.budgets
    this.tasks = features.tasks
    this.taskAutomation = features.taskAutomation
    this.reviewMerges = features.reviewMerges
    this.gitRefs = features.gitRefs
    this.reactions = features.reactions
    this.agentDependencies = agentDependenciesFor(team, options, features, {
      model: () => this.model,
      modelChoice: (name) => this.modelChoice(name),
      pauseReason: (name) => this.pauseReason(name),
      reportAuthFailure: (message) => this.authAlert.report(message),
      spawn: (request) => this.spawn({ ...request, by: LEAD }),
      permission: (name) => this.permission(name),
    })
    this.subscription = team.subscribe((event) => this.route(event))
  }

  static async open(options: HostOptions): Promise<TeamHost> {
    // A `.team/` the app makes now holds nothing it did not make: trusted at once.
    const madeHere = !existsSync(new TeamPaths(options.workspace).root)
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
      host.hostTrust.open(madeHere, { mcp: host.mcp, agents: host.agents })
      team.onControl((command) => host?.control(command))
      host.taskAutomation.releaseAtOpen(
        (name) => name === LEAD || team.roster.find(name) !== undefined,
      )
      reconcileMirrors(host.needsYou, team, host.protocolRequests())
      // An undo a crash cut short is finished before any agent works on its folder.
      await host.undo.recover().catch(options.report ?? (() => undefined))
      host.hostTrust.goOn()
      void host.reactions.seed()
      host.startSchedules()
      return host
    } catch (error) {
      await (host ?? team).close()
      throw error
    }
  }

  subscribe(listener: TeamListener): Disposable {
    return this.team.subscribe(listener)
  }

  /** The endpoint every agent calls (an agent's own model choice aside). */
  get endpoint(): ModelEndpoint {
    return this.model.endpoint
  }

  /**
   * The settings gave another endpoint: agents use it from their next call. A new key or
   * address also clears a refused-key alert and lets the agents it paused go on; the same
   * endpoint again changes nothing.
   */
  setEndpoint(endpoint: ModelEndpoint): void {
    const previous = this.model.endpoint
    if (sameEndpoint(previous, endpoint)) return
    this.model = new ModelClient(endpoint)
    if (!sameAccount(previous, endpoint)) this.authAlert.clear(this.agents.values())
  }

  /** The person's message to the lead. */
  chat(text: string): void {
    this.assertOpen()
    if (text.trim().length === 0) throw new TeamError('invalid-argument', 'The message is empty.')
    this.agents.load(LEAD).addUserTurn(USER, text)
  }

  /**
   * Spawns a teammate, or spawns an idle one again. Only the person (`by: USER`) changes the
   * rights of a member already on the roster; anyone else's re-spawn keeps them and says so.
   */
  async spawn(asked: SpawnRequest): Promise<string> {
    return spawnMember(
      {
        team: this.team,
        protocols: this.protocols,
        profiles: this.profiles,
        worktrees: this.worktrees,
        mcp: this.mcp,
        now: () => (this.options.clock ?? systemClock).now() / 1000,
        assertOpen: () => this.assertOpen(),
        firstTurn: async (name, from, text) =>
          (await this.agents.loadOnItsEngine(name)).addUserTurn(from, text),
        modelChoice: (name) => this.modelChoice(name),
        permission: (name) => this.permission(name),
        engines: () => this.engineAvailability(),
      },
      asked,
    )
  }

  /** Whether each engine can run here: what every spawn checks (asked afresh each time). */
  engineAvailability(): readonly EngineAvailability[] {
    return (this.options.engineAvailability ?? engineAvailability)()
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
    this.agents.loaded(name).stop()
  }

  /** Stops every agent (Ctrl+C in the CLI); transcripts stay valid for the API. */
  stopAll(): void {
    for (const agent of this.agents.values()) agent.stop()
  }

  /**
   * The person runs a schedule now: it starts, or (another run working) waits or is skipped as
   * the schedule says. Only in a process that runs schedules, and while the workspace is trusted.
   */
  runScheduleNow(name: string): RunOutcome {
    this.assertOpen()
    if (this.schedules === null)
      throw new TeamError(
        'not-running',
        'Schedules run in the window or "agent-teams serve", not in this process.',
      )
    return this.schedules.runNow(name)
  }

  /** Goes on after a pause, an error, a stall or a stop; a stalled stream is retried at once. */
  resume(name: string): void {
    this.assertOpen()
    this.agents.loaded(name).resume()
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

  /**
   * The person's answer to a Needs-you entry (approve, approve always, deny, answer); an
   * "approve always" rule of theirs keeps a trusted workspace trusted.
   */
  answerNeedsYou(answer: NeedsYouAnswer): NeedsYouEntry {
    this.assertOpen()
    const { id, decision, text } = answer
    return this.trust.keep(() =>
      this.needsYou.answer({ id, decision, ...(text === undefined ? {} : { text }) }),
    )
  }

  /** The person's allowed hosts for bash and the servers (Settings): trusted stays trusted. */
  setAllowedHosts(hosts: readonly string[]): void {
    this.assertOpen()
    this.trust.keep(() => writeTeamSandbox(this.team.paths, hosts))
  }

  /**
   * The person's answer to the trust question: yes agrees to what the workspace grants now
   * (remembered), and the team goes on as if it had opened trusted; no keeps everything off.
   */
  answerTrust(trust: boolean): TrustView {
    this.assertOpen()
    return this.hostTrust.answer(trust)
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
    this.team.publish({ type: 'budget-changed', name, budget: this.budgetOf(name) })
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
    return this.agents.load(name).store.page(page.fromSeq ?? 1, page.limit)
  }

  inbox(
    name: string,
    page: { from?: Position; limit?: number; pendingOnly?: boolean } = {},
  ): Promise<InboxPage> {
    return this.team.mailbox.peek(name, page)
  }

  /**
   * Resolves once no agent is running (and none was woken meanwhile) and their git work is done,
   * with the roster written.
   */
  async whenIdle(): Promise<void> {
    await this.agents.settled()
    // The checkpoint an agent takes as it comes to rest is part of its work.
    await this.worktrees.allSettled()
    if (!this.closed) this.team.flushStatuses()
  }

  /** Agents whose last activation ended in error (for the CLI's exit code). */
  errors(): { agent: string; message: string }[] {
    return this.agents.errors()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.schedules?.close()
    this.subscription.dispose()
    this.taskAutomation.close()
    this.reviewMerges.dispose()
    await this.reactions.close()
    await this.worktrees.close()
    const refs = await this.gitRefs
    refs?.close()
    this.hostTrust.close()
    await this.agents.closeAll()
    await this.mcp.close()
    await this.team.close()
    // The sandbox's proxies would keep a CLI process alive until their idle stop; another
    // team's running command keeps them up (close waits for no one and stops only when idle).
    await defaultBashSandbox.close()
  }

  /** The person's undo from the CLI (control.jsonl); its outcome is written beside its journal. */
  undoFromControl(command: Extract<ControlCommand, { command: 'undo' }>): Promise<void> {
    return undoFromControl(this.undo, command)
  }

  /** `.team/control.jsonl`: stop and resume from another process (`agent-teams stop`). */
  private control(command: ControlCommand): void {
    if (this.closed) return
    runControlCommand(this, command, (event) => this.team.publish(event))
  }

  private route(event: TeamEvent): void {
    if (this.closed) return
    routeEvent(event, {
      team: this.team,
      worktrees: this.worktrees,
      taskAutomation: this.taskAutomation,
      needsYou: this.needsYou,
      reactions: this.reactions,
      leadWakesOnMessages: this.options.leadWakesOnMessages !== false,
      // Mail appended from outside wakes no one in a workspace the person has not trusted.
      outsideMailWakes: () => this.trust.isTrusted(),
      loadedAgent: (name) => this.agents.get(name),
      agent: (name) => this.agents.load(name),
    })
  }

  private startSchedules(): void {
    const options = this.options.schedules
    if (options === undefined) return
    const clock = this.options.clock ?? systemClock
    this.schedules = new TeamSchedules(
      {
        team: this.team,
        clock,
        ids: this.options.ids ?? randomIds(clock),
        trust: this.trust,
        needsYou: this.needsYou,
        prices: () => this.budgets.currentPrices(),
        chat: (text) => this.chat(text),
        stopAll: () => this.stopAll(),
        applyTemplate: (template) => applyTemplate(this, template, USER),
      },
      options,
    )
    this.schedules.start()
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
    if (this.closed) throw new TeamError('team-closed', 'The team is closed.')
  }
}
