import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import { LEAD, USER, assertSpawnableName } from '../../shared/names'
import type { MemberStatus } from '../../shared/roster'
import type { TranscriptRecord, Usage } from '../../shared/transcript'
import { Agent } from './agents/agent'
import { leadSystemPrompt, teammateSystemPrompt } from './agents/prompts'
import type { Clock, IdSource } from './clock'
import type { InboxPage } from './mailbox/mailbox'
import type { Position } from './mailbox/position'
import { ModelClient, type ModelEndpoint } from './model/client'
import { Team, type Disposable, type TeamListener } from './team'
import { basicTools } from './tools/basic-tools'
import { teamTools, type TeamOperations } from './tools/team-tools'

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
}

export interface AgentSummary {
  readonly name: string
  readonly role: string
  readonly status: MemberStatus
  readonly running: boolean
  readonly usage: Usage
}

export const DEFAULT_ROUND_CAP = 50

/**
 * The runtime's one surface: commands (chat, spawn, send, broadcast, stop), queries (roster,
 * transcripts, inboxes) and the event stream. The CLI, the Electron IPC adapter and the
 * browser-mode server use only this.
 */
export class TeamHost {
  private readonly agents = new Map<string, Agent>()
  private leadStatus: MemberStatus = 'idle'
  private model: ModelClient
  private readonly subscription: Disposable
  private closed = false

  private constructor(
    readonly team: Team,
    private readonly options: HostOptions,
  ) {
    this.model = new ModelClient(options.endpoint)
    this.subscription = team.subscribe((event) => this.route(event))
  }

  static async open(options: HostOptions): Promise<TeamHost> {
    const team = await Team.open({
      workspace: options.workspace,
      clock: options.clock,
      ids: options.ids,
      watch: options.watch,
    })
    const host = new TeamHost(team, options)
    host.resume()
    return host
  }

  subscribe(listener: TeamListener): Disposable {
    return this.team.subscribe(listener)
  }

  setEndpoint(endpoint: ModelEndpoint): void {
    this.model = new ModelClient(endpoint)
  }

  /** The person's message to the lead. */
  chat(text: string): void {
    this.assertOpen()
    if (text.trim().length === 0) throw new TeamError('invalid-argument', 'The message is empty.')
    this.agent(LEAD).addUserTurn(USER, text)
  }

  spawn(request: {
    name: string
    role: string
    prompt: string
    model?: string
    by?: string
  }): string {
    this.assertOpen()
    assertSpawnableName(request.name)
    const member = this.team.roster.find(request.name)
    // The roster's status decides: an agent that reported idle may still be finishing its
    // last step, and a new turn then simply keeps it going.
    if (member?.status === 'working') {
      throw new TeamError(
        'member-working',
        `"${request.name}" is working right now; wait until it is idle, or stop it first.`,
      )
    }
    const previous = member?.status
    this.team.updateRoster((draft) => {
      const existing = draft.members.find((candidate) => candidate.name === request.name)
      const now = (this.options.clock?.now() ?? Date.now()) / 1000
      if (existing) {
        existing.role = request.role
        existing.status = 'working'
        if (request.model) existing.model = request.model
        existing.updated_at = now
      } else {
        draft.members.push({
          name: request.name,
          role: request.role,
          status: 'working',
          ...(request.model ? { model: request.model } : {}),
          created_at: now,
        })
      }
    })
    if (previous !== undefined)
      this.team.publish({
        type: 'agent-status-changed',
        name: request.name,
        previous,
        status: 'working',
        reason: 'spawned again',
      })
    this.agent(request.name).addUserTurn(request.by ?? LEAD, request.prompt)
    return `Spawned '${request.name}' (role: ${request.role})`
  }

  send(request: { from?: string; to: string; content: string; type?: string }): MailMessage {
    this.assertOpen()
    return this.team.send({
      from: request.from ?? USER,
      to: request.to,
      content: request.content,
      type: request.type,
    })
  }

  broadcast(request: { from?: string; content: string }): MailMessage[] {
    this.assertOpen()
    return this.team.broadcast({ from: request.from ?? USER, content: request.content })
  }

  stop(name: string): void {
    const agent = this.agents.get(name)
    if (!agent) throw new TeamError('unknown-recipient', `No agent "${name}" is running.`)
    agent.stop()
  }

  roster(): { team_name: string; lead: AgentSummary; members: AgentSummary[] } {
    const lead = this.agents.get(LEAD)
    return {
      team_name: this.team.roster.snapshot.team_name,
      lead: {
        name: LEAD,
        role: 'lead',
        status: this.leadStatus,
        running: lead?.isRunning ?? false,
        usage: lead?.usage ?? { input_tokens: 0, output_tokens: 0 },
      },
      members: this.team.roster.members.map((member) => {
        const agent = this.agents.get(member.name)
        return {
          name: member.name,
          role: member.role,
          status: member.status,
          running: agent?.isRunning ?? false,
          usage: agent?.usage ?? { input_tokens: 0, output_tokens: 0 },
        }
      }),
    }
  }

  transcript(
    name: string,
    page: { fromSeq?: number; limit?: number } = {},
  ): { records: TranscriptRecord[]; total: number } {
    const records = this.agent(name).store.all
    const from = Math.max(0, (page.fromSeq ?? 1) - 1)
    return {
      records: records.slice(from, from + (page.limit ?? records.length)),
      total: records.length,
    }
  }

  inbox(
    name: string,
    page: { from?: Position; limit?: number; pendingOnly?: boolean } = {},
  ): Promise<InboxPage> {
    return this.team.mailbox.peek(name, page)
  }

  /** Resolves once no agent is running (and none was woken meanwhile). */
  async whenIdle(): Promise<void> {
    for (;;) {
      const running = [...this.agents.values()].filter((agent) => agent.isRunning)
      if (running.length === 0) return
      await Promise.all(running.map((agent) => agent.settled()))
    }
  }

  /** Whether any agent ended its last activation in error (for the CLI's exit code). */
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
    await Promise.all([...this.agents.values()].map((agent) => agent.close()))
    this.agents.clear()
    await this.team.close()
  }

  /** After a start: every agent with something pending (mail, an unanswered turn) goes on. */
  private resume(): void {
    this.agent(LEAD).wake()
    for (const member of this.team.roster.members)
      if (member.status !== 'shutdown') this.agent(member.name).wake()
  }

  private route(event: TeamEvent): void {
    if (this.closed) return
    if (event.type === 'message-sent') this.mailArrived(event.message.to, event.message.from)
    else if (event.type === 'inbox-changed' && event.change !== 'removed')
      this.mailArrived(event.name, null)
  }

  private mailArrived(name: string, from: string | null): void {
    if (name === LEAD) {
      if (this.options.leadWakesOnMessages !== false || from === USER) this.agent(LEAD).wake()
      return
    }
    const member = this.team.roster.find(name)
    if (member && member.status !== 'shutdown') this.agent(name).wake()
  }

  private agent(name: string): Agent {
    const existing = this.agents.get(name)
    if (existing) return existing
    const isLead = name === LEAD
    if (!isLead && !this.team.roster.find(name))
      throw new TeamError('unknown-recipient', `"${name}" is not on the roster.`)
    const tools = teamTools(this.operations())
    const agent = new Agent({
      name,
      kind: isLead ? 'lead' : 'teammate',
      paths: this.team.paths,
      mailbox: this.team.mailbox,
      clock: this.options.clock ?? { now: () => Date.now() },
      tools: [...basicTools, ...(isLead ? tools.lead : tools.teammate)],
      model: () => this.model,
      modelId: () =>
        isLead ? undefined : (this.team.roster.find(name)?.model as string | undefined),
      system: () => {
        const member = this.team.roster.find(name)
        return isLead
          ? leadSystemPrompt({
              workspace: this.team.paths.workspace,
              teamName: this.team.roster.snapshot.team_name,
            })
          : teammateSystemPrompt({
              name,
              role: member?.role ?? 'teammate',
              workspace: this.team.paths.workspace,
            })
      },
      roundCap: this.options.roundCap ?? DEFAULT_ROUND_CAP,
      emit: (event) => this.team.publish(event),
      setStatus: (status, reason) => this.setStatus(name, status, reason),
    })
    this.agents.set(name, agent)
    return agent
  }

  private setStatus(name: string, status: MemberStatus, reason: string): void {
    if (name === LEAD) {
      const previous = this.leadStatus
      if (previous === status) return
      this.leadStatus = status
      this.team.publish({ type: 'agent-status-changed', name, previous, status, reason })
      return
    }
    const member = this.team.roster.find(name)
    if (!member || member.status === status) return
    // A teammate shut down while it worked stays shut down when its activation ends.
    if (member.status === 'shutdown' && status !== 'working') return
    const previous = member.status
    this.team.updateRoster((draft) => {
      const target = draft.members.find((candidate) => candidate.name === name)
      if (target) target.status = status
    })
    this.team.publish({ type: 'agent-status-changed', name, previous, status, reason })
  }

  private operations(): TeamOperations {
    return {
      spawn: (request) => this.spawn({ ...request, by: LEAD }),
      listTeammates: () => {
        const members = this.team.roster.members
        if (members.length === 0) return 'No teammates.'
        return [
          `Team: ${this.team.roster.snapshot.team_name}`,
          ...members.map((member) => `  ${member.name} (${member.role}): ${member.status}`),
        ].join('\n')
      },
      send: (request) => this.team.send(request),
      broadcast: (request) => this.team.broadcast(request),
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new TeamError('invalid-argument', 'The team is closed.')
  }
}
