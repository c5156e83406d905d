import { agentErrorEvent } from '../../shared/events'
import { TeamError } from '../../shared/errors'
import type { ModelUsage } from '../../shared/cost'
import type { TranscriptRecord, NewTranscriptRecord, Usage } from '../../shared/transcript'
import type { InboxConsumer } from '../mailbox/consumer'
import type { ModelTurn, TurnRequest } from '../model/client'
import { ContextWindows } from '../model/context-window'
import { partialOf, withoutPartial } from '../model/interrupted'
import type { ActivationEnd, AgentOptions } from './agent-types'
import type { TeamAgent } from './team-agent'
import { awaitsModel, toConversation, unansweredToolCalls } from './conversation'
import { Compactor } from './compaction'
import { CUT_OFF, cutOffCall, LoopDetector } from './guards'
import { InboxIntake } from './intake'
import { ModelTurnRunner, TurnFailure } from './model-turn'
import { describeEnd } from './activation-end'
import { thinkingForTurn } from './thinking-turn'
import { ToolCalls } from './tool-calls'
import { TranscriptStore } from './transcript-store'
import { UsageMeter } from './usage-meter'

const RECENT_IDS = 5000

/**
 * One agent's loop: before every model call its new inbox messages are injected, then one
 * streamed model turn, then its tool calls; until a final answer with nothing new, the round
 * cap, a pause, a stop, a shutdown or an error. `wake()` starts it again.
 */
export class Agent implements TeamAgent {
  readonly engine = 'builtin' as const
  readonly store: TranscriptStore
  private readonly consumer: InboxConsumer
  private readonly intake: InboxIntake
  private readonly toolCalls: ToolCalls
  private readonly turns: ModelTurnRunner
  private readonly compactor: Compactor
  private readonly loops = new LoopDetector()
  private running: Promise<void> | null = null
  private wakeRequested = false
  /** Set by `resume()`: go on even though the last activation ended on a status. */
  private resumeRequested = false
  private shutdownReason: string | null = null
  private controller: AbortController | null = null
  private readonly meter: UsageMeter
  private lastEnd: ActivationEnd = { kind: 'idle' }
  private wakeTimer: NodeJS.Timeout | null = null
  /** The last record the request of the model call in flight (or the last one) was built from. */
  private sentThrough = 0

  // The ports it is made of (agent-types.ts); the mail port is used up by the constructor.
  private readonly identity: AgentOptions['identity']
  private readonly model: AgentOptions['model']
  private readonly tools: AgentOptions['tools']
  private readonly guard: AgentOptions['guard']
  private readonly events: AgentOptions['events']

  constructor(options: AgentOptions) {
    const { identity, model, mail, tools, guard, events, clock } = options
    this.identity = identity
    this.model = model
    this.tools = tools
    this.guard = guard
    this.events = events
    this.store = TranscriptStore.open(mail.paths.transcript(identity.name), clock)
    try {
      this.consumer = mail.mailbox.openConsumer(identity.name, {
        recordedUpTo: this.store.lastInboxEnd(),
        recentIds: this.store.recentMessageIds(RECENT_IDS),
      })
    } catch (error) {
      this.store.close()
      throw error
    }
    this.intake = new InboxIntake({
      name: identity.name,
      consumer: this.consumer,
      store: this.store,
      record: (record) => this.record(record),
      emit: events.emit,
      judge: mail.judge,
      wakeLater: (milliseconds) => this.wakeLater(milliseconds),
      clock,
      signalled: mail.signalled,
    })
    this.turns = new ModelTurnRunner(model.turnPolicy, {
      waiting: (reason, cause) => events.setStatus('waiting', reason, { cause }),
      working: () => events.setStatus('working', 'working again'),
      stalled: (reason) => events.setStatus('stalled', reason),
      reset: (reason) => events.emit({ type: 'stream-reset', agent: identity.name, reason }),
    })
    this.compactor = this.newCompactor()
    this.toolCalls = new ToolCalls({
      agent: identity.name,
      workspace: tools.root,
      tools: () => [...tools.builtIn, ...tools.more()],
      records: () => this.store.conversation(),
      record: (record) => this.record(record),
      emit: events.emit,
      takeInbox: (call) => this.intake.takeForReadInbox(call),
      fitResult: (content) => this.compactor.cutToolResult(content, model.modelId()),
      planGate: guard.planGate,
      policy: guard.toolPolicy,
      stillWaiting: tools.stillWaiting,
    })
    this.meter = UsageMeter.fromTotals(this.store.usageTotals)
  }

  get name(): string {
    return this.identity.name
  }
  get isRunning(): boolean {
    return this.running !== null
  }
  get usage(): Usage {
    return this.meter.usage
  }
  get usageByModel(): ModelUsage {
    return this.meter.usageByModel
  }
  /** Model calls made, over the agent's whole life. */
  get roundsUsed(): number {
    return this.meter.rounds
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
        // Work is an unfinished turn to go on with, or new mail. Injecting the mail records it
        // in the transcript and commits the inbox cursor, so it is its own visible step.
        if (!this.canResumeTurn() && (await this.intake.inject()) === 0) continue
        this.resumeRequested = false
        this.events.setStatus('working', 'activated')
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
    const code = refused ? error.code : 'internal'
    this.lastEnd = { kind: 'error', code, message }
    this.wakeRequested = false
    try {
      this.settle(this.lastEnd)
    } catch {
      // Recording the status failed too (the same fault): report it without a record.
      this.events.emit(agentErrorEvent(this.name, 'internal', message))
      this.events.setStatus('error', message, { errorCode: code })
    }
  }

  private settle(end: ActivationEnd): void {
    const outcome = describeEnd(end)
    if (outcome.record !== null)
      this.record({ kind: 'status', status: outcome.status, reason: outcome.record })
    this.store.saveTotals()
    // A refused key is reported once for the whole team by the host, not per agent.
    if (end.kind === 'error' && end.code !== 'auth')
      this.events.emit(agentErrorEvent(this.name, end.code, end.message))
    this.events.setStatus(outcome.status, outcome.reason, outcome.facts)
  }

  /**
   * Whether the transcript holds a turn to go on with (a user turn the model has not answered,
   * or tool calls without results). A query: it reads the transcript and changes nothing.
   * An activation that ended on a status (round cap, stop, pause, error) goes on only after an
   * explicit resume: otherwise every wake, or a restart, would hand a looping model another
   * full round cap.
   */
  private canResumeTurn(): boolean {
    const recent = this.store.recent
    const endedOnStatus = recent[recent.length - 1]?.kind === 'status'
    const pending = awaitsModel(recent) || unansweredToolCalls(recent).length > 0
    return pending && (!endedOnStatus || this.resumeRequested)
  }

  private async activate(): Promise<ActivationEnd> {
    const controller = new AbortController()
    this.controller = controller
    this.loops.reset()
    try {
      await this.toolCalls.resumeWaiting(controller.signal)
      if (controller.signal.aborted) {
        this.toolCalls.answerInterrupted('stopped before it ran')
        return { kind: 'stopped' }
      }
      this.toolCalls.answerInterrupted()
      for (let rounds = 0; ;) {
        if (this.shutdownReason !== null) return { kind: 'shutdown', reason: this.shutdownReason }
        await this.intake.inject()
        if (!awaitsModel(this.store.recent)) return { kind: 'idle' }
        if (rounds >= this.guard.roundCap) return { kind: 'round-cap', rounds }
        const pause = this.guard.pauseReason()
        if (pause !== null) return { kind: 'paused', ...pause }
        await this.tools.started(controller.signal)
        const turn = await this.modelTurn(controller.signal)
        rounds++
        this.recordTurn(turn)
        let loop: string | null = null
        const cutOff = cutOffCall(turn)
        for (const call of unansweredToolCalls(this.store.recent)) {
          if (controller.signal.aborted) break
          await this.toolCalls.run(call, controller.signal, call.id === cutOff ? CUT_OFF : null)
          loop ??= this.loops.observe(call.name, call.input)
        }
        if (controller.signal.aborted) {
          this.toolCalls.answerInterrupted('stopped before it ran')
          return { kind: 'stopped' }
        }
        if (loop !== null) return { kind: 'paused', cause: 'loop', reason: loop }
      }
    } catch (error) {
      if (controller.signal.aborted) {
        const partial = partialOf(error)
        if (partial !== null) this.recordTurn(partial)
        this.toolCalls.answerInterrupted('stopped while it ran')
        return { kind: 'stopped' }
      }
      if (error instanceof TurnFailure) {
        if (error.kind === 'auth') {
          this.model.keyRefused(error.message)
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

  /**
   * One model turn; the compactor makes room for it first (and again after "too long"). The
   * request sent is remembered with the last record it holds: the person may chat while the
   * call is in flight, and the turn recorded after that must not pass for an answer to it.
   */
  private modelTurn(signal: AbortSignal): Promise<ModelTurn> {
    const client = this.model.client()
    const builtThrough = new WeakMap<TurnRequest, number>()
    return this.compactor.turn(
      client,
      () => {
        const request = this.turnRequest()
        builtThrough.set(request, this.store.length)
        return request
      },
      (request) => {
        this.sentThrough = builtThrough.get(request) ?? this.store.length
        return this.turns.run(client, request, signal)
      },
      signal,
    )
  }

  private newCompactor(): Compactor {
    const { identity, model } = this
    return new Compactor({
      // The summary's identity block looks back past the last compaction: every record.
      records: () => this.store.all,
      record: (record) => this.record(record),
      windows: new ContextWindows(model.contextWindow),
      identity: () => ({ name: identity.name, ...identity.roleAndTeam() }),
      openRequests: identity.openRequests,
      summarize: (client, request, signal) =>
        this.turns.run(client, request, signal).catch(withoutPartial),
      onUsage: (usage, modelId) => this.countUsage(usage, modelId),
      policy: model.compaction,
    })
  }

  private turnRequest(): TurnRequest {
    return {
      agent: this.name,
      system: this.identity.systemPrompt(),
      messages: toConversation(this.store.conversation()),
      tools: this.toolCalls.definitions(),
      model: this.model.modelId(),
      thinkingBudget: thinkingForTurn(this.store.conversation(), this.model.thinkingBudget()),
      observer: {
        onText: (text) => this.events.emit({ type: 'text-delta', agent: this.name, text }),
        onToolStart: (block) =>
          this.events.emit({ type: 'tool-call-started', agent: this.name, ...block }),
        onToolInput: (id, partial) =>
          this.events.emit({
            type: 'tool-input-delta',
            agent: this.name,
            id,
            partial_json: partial,
          }),
      },
    }
  }

  private wakeLater(milliseconds: number): void {
    if (this.wakeTimer) return
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null
      this.wake()
    }, milliseconds)
  }

  private record(record: NewTranscriptRecord): TranscriptRecord {
    const stamped = this.store.append(record)
    this.events.emit({ type: 'transcript-appended', agent: this.name, record: stamped })
    return stamped
  }

  /**
   * A model turn (or what streamed of it before a stop): recorded, and its tokens counted.
   * Records appended while it streamed were not in its request: the turn says so, and the
   * conversation puts them after it (`inModelOrder`), for the next request.
   */
  private recordTurn(turn: ModelTurn): void {
    const unseen = this.store.length > this.sentThrough
    this.record({
      kind: 'assistant',
      ...turn,
      ...(unseen ? { seen_through_seq: this.sentThrough } : {}),
    })
    this.countUsage(turn.usage, turn.model)
  }

  /** A model call's tokens (a turn's or a summary's): counted, and reported with the total. */
  private countUsage(usage: Usage, model: string): void {
    this.meter.count(usage, model)
    this.events.emit({
      type: 'usage-reported',
      agent: this.name,
      model,
      usage,
      total: this.meter.usage,
    })
  }
}
