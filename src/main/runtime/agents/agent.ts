import type { Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import { TeamError } from '../../../shared/errors'
import type { TeamEvent } from '../../../shared/events'
import { NO_USAGE, addUsage } from '../../../shared/usage'
import { addModelUsage, type ModelUsage } from '../../../shared/cost'
import type { MailMessage } from '../../../shared/messages'
import type { MemberStatus } from '../../../shared/roster'
import type {
  ToolUseBlock,
  TranscriptRecord,
  NewTranscriptRecord,
  Usage,
} from '../../../shared/transcript'
import type { Clock } from '../clock'
import type { InboxConsumer } from '../mailbox/consumer'
import type { Mailbox } from '../mailbox/mailbox'
import type { ModelClient, ModelTurn } from '../model/client'
import { ContextWindows } from '../model/context-window'
import { partialOf, withoutPartial } from '../model/interrupted'
import type { TeamPaths } from '../team-paths'
import { READ_INBOX_DEFINITION } from '../tools/team-tools'
import type { Tool } from '../tools/types'
import { awaitsModel, toConversation, unansweredToolCalls } from './conversation'
import { Compactor, DEFAULT_COMPACTION_POLICY, type CompactionPolicy } from './compaction'
import { CUT_OFF, cutOffCall, LoopDetector, MUTATING_TOOLS } from './guards'
import { InboxIntake } from './intake'
import { DEFAULT_TURN_POLICY, ModelTurnRunner, TurnFailure, type TurnPolicy } from './model-turn'
import { describeEnd } from './activation-end'
import { thinkingForTurn } from './thinking-turn'
import { TranscriptStore } from './transcript-store'

export type AgentKind = 'lead' | 'teammate'

/** What paused an agent: what lifts the pause is the matching fix (a budget, a key, a resume). */
export type PauseCause = 'budget' | 'auth' | 'loop'

export interface AgentOptions {
  readonly name: string
  readonly kind: AgentKind
  readonly paths: TeamPaths
  readonly mailbox: Mailbox
  readonly clock: Clock
  readonly tools: readonly Tool[]
  /** The model client to use for the next turn (settings may change between turns). */
  readonly model: () => ModelClient
  readonly modelId?: () => string | undefined
  /** Its extended-thinking budget for the next turn; off when undefined. */
  readonly thinkingBudget?: () => number | undefined
  readonly system: () => string
  readonly roundCap: number
  readonly turnPolicy?: TurnPolicy
  readonly emit: (event: TeamEvent) => void
  readonly setStatus: (status: MemberStatus, reason: string) => void
  /** Why a delivered message must be refused (the protocols), or null to take it. */
  readonly judge?: (message: MailMessage) => string | null
  /** Told of messages taken into the transcript (protocol requests act on this). */
  readonly onMessages?: (messages: readonly MailMessage[]) => void
  /** Why the next model call may not happen (a budget, the team's key refused), or null. */
  readonly pauseReason?: () => { cause: PauseCause; reason: string } | null
  /** Why mutating tools are refused right now (a plan not yet approved), or null. */
  readonly planGate?: () => string | null
  /** The endpoint refused the key: reported once for the whole team by the host. */
  readonly onAuthFailure?: (message: string) => void
  /**
   * Whether every append to this agent's inbox is reported through `noteMail` (in-process sends
   * and a watcher of `.team/`); then the inbox is polled only after one. Default false: every
   * model call polls.
   */
  readonly mailSignalled?: boolean
  /** The agent's role and team, for the identity block a compaction shows (default: none known). */
  readonly identity?: () => { role: string; team: string }
  /** Open protocol requests this agent is part of, one line each, for the identity block. */
  readonly openRequests?: () => readonly string[]
  /** The `contextWindow` setting, for models the built-in table does not know. */
  readonly contextWindow?: () => number | undefined
  readonly compaction?: CompactionPolicy
}

/** How one activation ended: the typed step the agent and the host act on. */
export type ActivationEnd =
  | { readonly kind: 'idle' }
  | { readonly kind: 'round-cap'; readonly rounds: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'paused'; readonly cause: PauseCause; readonly reason: string }
  | { readonly kind: 'shutdown'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string; readonly code: string }

const RECENT_IDS = 5000

/**
 * One agent's loop: before every model call its new inbox messages are injected, then one
 * streamed model turn, then its tool calls; until a final answer with nothing new, the round
 * cap, a pause, a stop, a shutdown or an error. `wake()` starts it again.
 */
export class Agent {
  readonly store: TranscriptStore
  private readonly consumer: InboxConsumer
  private readonly intake: InboxIntake
  private readonly toolsByName: Map<string, Tool>
  private readonly turns: ModelTurnRunner
  private readonly compactor: Compactor
  private readonly loops = new LoopDetector()
  private running: Promise<void> | null = null
  private wakeRequested = false
  /** Set by `resume()`: go on even though the last activation ended on a status. */
  private resumeRequested = false
  private shutdownReason: string | null = null
  private controller: AbortController | null = null
  private usageTotal: Usage = NO_USAGE
  /** The same usage per model: what its cost is priced from. */
  private usageByModelTotal: ModelUsage = []
  private rounds = 0
  private lastEnd: ActivationEnd = { kind: 'idle' }
  private wakeTimer: NodeJS.Timeout | null = null

  constructor(private readonly options: AgentOptions) {
    this.store = TranscriptStore.open(options.paths.transcript(options.name), options.clock)
    try {
      this.consumer = options.mailbox.openConsumer(options.name, {
        recordedUpTo: this.store.lastInboxEnd(),
        recentIds: this.store.recentMessageIds(RECENT_IDS),
      })
    } catch (error) {
      this.store.close()
      throw error
    }
    this.intake = new InboxIntake({
      name: options.name,
      consumer: this.consumer,
      store: this.store,
      record: (record) => this.record(record),
      emit: options.emit,
      judge: options.judge ?? (() => null),
      onTaken: (messages) => options.onMessages?.(messages),
      wakeLater: (milliseconds) => this.wakeLater(milliseconds),
      clock: options.clock,
      signalled: options.mailSignalled ?? false,
    })
    this.turns = new ModelTurnRunner(options.turnPolicy ?? DEFAULT_TURN_POLICY, {
      waiting: (reason) => options.setStatus('waiting', reason),
      working: () => options.setStatus('working', 'working again'),
      stalled: (reason) => options.setStatus('stalled', reason),
      reset: (reason) => options.emit({ type: 'stream-reset', agent: options.name, reason }),
    })
    this.compactor = this.newCompactor()
    this.toolsByName = new Map(options.tools.map((tool) => [tool.definition.name, tool]))
    for (const record of this.store.all) {
      // A summarizing call is a model call too, and its tokens are the agent's.
      if (record.kind !== 'assistant' && record.kind !== 'compaction') continue
      this.addUsage(record.usage, record.model)
      this.rounds++
    }
  }

  get name(): string {
    return this.options.name
  }
  get isRunning(): boolean {
    return this.running !== null
  }
  get usage(): Usage {
    return this.usageTotal
  }
  get usageByModel(): ModelUsage {
    return this.usageByModelTotal
  }
  /** Model calls made, over the agent's whole life. */
  get roundsUsed(): number {
    return this.rounds
  }
  get lastActivation(): ActivationEnd {
    return this.lastEnd
  }

  /** Records a turn from the person (lead chat) or a task (spawn prompt), then wakes. */
  addUserTurn(from: string, text: string): void {
    this.shutdownReason = null
    this.record({ kind: 'user', from, text })
    this.store.flush()
    this.wake()
  }

  /** Something may have been appended to this agent's inbox (it is not woken by this). */
  noteMail(): void {
    this.intake.markChanged()
  }

  /** Starts an activation, or asks the running one to look again when it ends. */
  wake(): void {
    if (this.running) {
      this.wakeRequested = true
      return
    }
    this.running = this.runUntilQuiet().finally(() => {
      this.running = null
    })
  }

  /** Goes on after a pause, an error or a stop (a raised budget, a fixed key, a retry). */
  resume(): void {
    if (this.turns.retryNow()) return
    this.resumeRequested = true
    this.wake()
  }

  /** The shutdown protocol approved: finish the current step, then end as `shutdown`. */
  shutdownAfterThisStep(reason: string): void {
    this.shutdownReason = reason
  }

  async settled(): Promise<void> {
    while (this.running) await this.running
  }

  /** Stops the model stream and any running tool; the activation ends as `stopped`. */
  stop(): void {
    this.wakeRequested = false
    this.controller?.abort()
  }

  async close(): Promise<void> {
    if (this.wakeTimer) clearTimeout(this.wakeTimer)
    this.wakeTimer = null
    this.stop()
    await this.settled()
    this.consumer.close()
    this.store.close()
  }

  private async runUntilQuiet(): Promise<void> {
    do {
      this.wakeRequested = false
      try {
        if (!(await this.hasWork())) continue
        this.resumeRequested = false
        this.options.setStatus('working', 'activated')
        this.lastEnd = await this.activate()
        this.settle(this.lastEnd)
      } catch (error) {
        // A file refused under .team/ (an inbox that is a FIFO, say) or a bug must end this
        // agent, not the process: it goes to `error` with the reason and the others go on.
        // Nothing is lost: a batch whose recording threw was never committed, so its messages
        // wait in the inbox.
        this.failed(error)
        return
      }
    } while (this.wakeRequested)
  }

  /** Ends the agent in `error` after an unexpected throw, reporting it however far it gets. */
  private failed(error: unknown): void {
    const refused = error instanceof TeamError
    const message = refused
      ? error.message
      : `internal error: ${error instanceof Error ? error.message : String(error)}`
    this.lastEnd = { kind: 'error', code: refused ? error.code : 'internal', message }
    this.wakeRequested = false
    try {
      this.settle(this.lastEnd)
    } catch {
      // Recording the status failed too (the same fault): report it without a record.
      this.options.emit({ type: 'agent-error', agent: this.name, code: 'internal', message })
      this.options.setStatus('error', message)
    }
  }

  private settle(end: ActivationEnd): void {
    const outcome = describeEnd(end)
    if (outcome.record !== null)
      this.record({ kind: 'status', status: outcome.status, reason: outcome.record })
    // A refused key is reported once for the whole team by the host, not per agent.
    if (end.kind === 'error' && end.code !== 'auth')
      this.options.emit({
        type: 'agent-error',
        agent: this.name,
        code: end.code,
        message: end.message,
      })
    this.options.setStatus(outcome.status, outcome.reason)
  }

  private async hasWork(): Promise<boolean> {
    // An activation that ended on a status (round cap, stop, pause, error) goes on only for
    // new input or an explicit resume: otherwise every wake, or a restart, would hand a looping
    // model another full round cap.
    const endedOnStatus = this.store.all[this.store.all.length - 1]?.kind === 'status'
    const pending = awaitsModel(this.store.all) || unansweredToolCalls(this.store.all).length > 0
    if (pending && (!endedOnStatus || this.resumeRequested)) return true
    return (await this.intake.inject()) > 0
  }

  private async activate(): Promise<ActivationEnd> {
    const controller = new AbortController()
    this.controller = controller
    this.loops.reset()
    try {
      this.answerInterruptedCalls()
      for (let rounds = 0; ;) {
        if (this.shutdownReason !== null) return { kind: 'shutdown', reason: this.shutdownReason }
        await this.intake.inject()
        if (!awaitsModel(this.store.all)) return { kind: 'idle' }
        if (rounds >= this.options.roundCap) return { kind: 'round-cap', rounds }
        const pause = this.options.pauseReason?.() ?? null
        if (pause !== null) return { kind: 'paused', ...pause }
        const turn = await this.modelTurn(controller.signal)
        rounds++
        this.recordTurn(turn)
        let loop: string | null = null
        const cutOff = cutOffCall(turn)
        for (const call of unansweredToolCalls(this.store.all)) {
          if (controller.signal.aborted) break
          await this.runTool(call, controller.signal, call.id === cutOff ? CUT_OFF : null)
          loop ??= this.loops.observe(call.name, call.input)
        }
        if (controller.signal.aborted) {
          this.answerInterruptedCalls('stopped before it ran')
          return { kind: 'stopped' }
        }
        if (loop !== null) return { kind: 'paused', cause: 'loop', reason: loop }
      }
    } catch (error) {
      if (controller.signal.aborted) {
        const partial = partialOf(error)
        if (partial !== null) this.recordTurn(partial)
        this.answerInterruptedCalls('stopped while it ran')
        return { kind: 'stopped' }
      }
      if (error instanceof TurnFailure) {
        if (error.kind === 'auth') {
          this.options.onAuthFailure?.(error.message)
          return { kind: 'error', code: 'auth', message: error.message }
        }
        return { kind: 'error', code: error.code, message: error.message }
      }
      if (error instanceof TeamError)
        return { kind: 'error', code: error.code, message: error.message }
      throw error
    } finally {
      this.controller = null
    }
  }

  /** One model turn; the compactor makes room for it first (and again after "too long"). */
  private modelTurn(signal: AbortSignal): Promise<ModelTurn> {
    const client = this.options.model()
    return this.compactor.turn(
      client,
      () => this.turnRequest(),
      (request) => this.turns.run(client, request, signal),
      signal,
    )
  }

  private newCompactor(): Compactor {
    const options = this.options
    return new Compactor({
      records: () => this.store.all,
      record: (record) => this.record(record),
      windows: new ContextWindows(() => options.contextWindow?.()),
      identity: () => ({
        name: options.name,
        ...(options.identity?.() ?? { role: options.kind, team: 'default' }),
      }),
      openRequests: () => options.openRequests?.() ?? [],
      summarize: (client, request, signal) =>
        this.turns.run(client, request, signal).catch(withoutPartial),
      onUsage: (usage, model) => {
        this.rounds++
        this.addUsage(usage, model)
        options.emit({
          type: 'usage-reported',
          agent: this.name,
          model,
          usage,
          total: this.usageTotal,
        })
      },
      policy: options.compaction ?? DEFAULT_COMPACTION_POLICY,
    })
  }

  private turnRequest(): Parameters<ModelTurnRunner['run']>[1] {
    return {
      agent: this.name,
      system: this.options.system(),
      messages: toConversation(this.store.all),
      tools: this.apiTools(),
      model: this.options.modelId?.(),
      thinkingBudget: thinkingForTurn(this.store.all, this.options.thinkingBudget?.()),
      observer: {
        onText: (text) => this.options.emit({ type: 'text-delta', agent: this.name, text }),
        onToolStart: (block) =>
          this.options.emit({ type: 'tool-call-started', agent: this.name, ...block }),
        onToolInput: (id, partial) =>
          this.options.emit({
            type: 'tool-input-delta',
            agent: this.name,
            id,
            partial_json: partial,
          }),
      },
    }
  }

  /** `refusal`, when given, answers the call with it instead of running it. */
  private async runTool(
    call: ToolUseBlock,
    signal: AbortSignal,
    refusal: string | null = null,
  ): Promise<void> {
    let content: string
    let isError: boolean
    const gate =
      refusal ?? (MUTATING_TOOLS.has(call.name) ? (this.options.planGate?.() ?? null) : null)
    if (call.name === READ_INBOX_DEFINITION.name && gate === null) {
      content = await this.intake.readForTool(call)
      isError = false
    } else {
      const tool = this.toolsByName.get(call.name)
      const outcome =
        gate !== null
          ? { content: `Refused by the runtime: ${gate}`, isError: true }
          : tool
            ? await tool.run(call.input, {
                workspace: this.options.paths.workspace,
                agent: this.name,
                signal,
              })
            : {
                content: `Unknown tool "${call.name}". Available tools: ${[...this.toolsByName.keys(), READ_INBOX_DEFINITION.name].join(', ')}.`,
                isError: true,
              }
      const sent = this.compactor.cutToolResult(
        outcome.content,
        this.options.modelId?.() ?? this.options.model().endpoint.model,
      )
      content = sent.content
      isError = outcome.isError
      this.record({
        kind: 'tool-result',
        tool_use_id: call.id,
        name: call.name,
        content,
        is_error: isError,
        ...(sent.cut ? { cut: sent.cut } : {}),
      })
    }
    this.options.emit({
      type: 'tool-call-finished',
      agent: this.name,
      id: call.id,
      name: call.name,
      content,
      is_error: isError,
    })
  }

  /** A tool call found without its result (a crash, a stop) is answered, never re-run. */
  private answerInterruptedCalls(why = 'interrupted by a restart; outcome unknown'): void {
    for (const call of unansweredToolCalls(this.store.all)) {
      const content = `The call was ${why}. It was not run again; check its effects before retrying.`
      this.record({
        kind: 'tool-result',
        tool_use_id: call.id,
        name: call.name,
        content,
        is_error: true,
      })
      this.options.emit({
        type: 'tool-call-finished',
        agent: this.name,
        id: call.id,
        name: call.name,
        content,
        is_error: true,
      })
    }
  }

  private wakeLater(milliseconds: number): void {
    if (this.wakeTimer) return
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null
      this.wake()
    }, milliseconds)
  }

  private apiTools(): ApiTool[] {
    return [
      ...this.options.tools.map((tool) => tool.definition),
      READ_INBOX_DEFINITION,
    ] as ApiTool[]
  }

  private record(record: NewTranscriptRecord): TranscriptRecord {
    const stamped = this.store.append(record)
    this.options.emit({ type: 'transcript-appended', agent: this.name, record: stamped })
    return stamped
  }

  /** A model turn (or what streamed of it before a stop): recorded, and its tokens counted. */
  private recordTurn(turn: ModelTurn): void {
    this.rounds++
    this.record({ kind: 'assistant', ...turn })
    this.addUsage(turn.usage, turn.model)
    this.options.emit({
      type: 'usage-reported',
      agent: this.name,
      model: turn.model,
      usage: turn.usage,
      total: this.usageTotal,
    })
  }

  private addUsage(usage: Usage, model: string): void {
    this.usageTotal = addUsage(this.usageTotal, usage)
    this.usageByModelTotal = addModelUsage(this.usageByModelTotal, model, usage)
  }
}
