import { TeamError } from '../../shared/errors'
import { FOLDER_READ_ONLY_TOOLS } from '../../shared/profiles'
import type { ModelTurn, TurnRequest } from '../model/client'
import { ContextWindows } from '../model/context-window'
import { partialOf, withoutPartial } from '../model/interrupted'
import type { ActivationEnd, AgentOptions } from './agent-types'
import { AgentCore } from './agent-core'
import { awaitsModel, toConversation, unansweredToolCalls } from './conversation'
import { Compactor } from './compaction'
import { CUT_OFF, cutOffCall, LoopDetector } from './guards'
import { ModelTurnRunner, TurnFailure } from './model-turn'
import { thinkingForTurn } from './thinking-turn'
import { ToolCalls } from './tool-calls'

/**
 * One agent's loop: before every model call its new inbox messages are injected, then one
 * streamed model turn, then its tool calls; until a final answer with nothing new, the round
 * cap, a pause, a stop, a shutdown or an error. `wake()` starts it again.
 */
export class Agent extends AgentCore {
  readonly engine = 'builtin' as const
  private readonly toolCalls: ToolCalls
  private readonly turns: ModelTurnRunner
  private readonly compactor: Compactor
  private readonly loops = new LoopDetector()
  /** The last record the request of the model call in flight (or the last one) was built from. */
  private sentThrough = 0

  // The ports it is made of (agent-types.ts); the mail port is used up by the constructor.
  private readonly identity: AgentOptions['identity']
  private readonly model: AgentOptions['model']
  private readonly tools: AgentOptions['tools']
  private readonly guard: AgentOptions['guard']

  constructor(options: AgentOptions) {
    super(options)
    const { identity, model, tools, guard, events } = options
    this.identity = identity
    this.model = model
    this.tools = tools
    this.guard = guard
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
  }

  /** Goes on after a pause, an error or a stop (a raised budget, a fixed key, a retry). */
  override resume(): void {
    if (this.turns.retryNow()) return
    super.resume()
  }

  protected async runUntilQuiet(): Promise<void> {
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
        // Taken while the model answers; the turn's tool calls wait for it (tools.root). After a
        // call whose tools only read, the folder is as the last checkpoint found it: repeated.
        void this.tools.checkpoint?.({
          kind: 'turn',
          turnSeq: this.store.length + 1,
          opensTurn: rounds === 0,
          ...(rounds > 0 && !this.folderMayHaveChanged ? { repeat: true } : {}),
        })
        this.folderMayHaveChanged = false
        const turn = await this.modelTurn(controller.signal)
        rounds++
        this.recordTurn(turn)
        let loop: string | null = null
        const cutOff = cutOffCall(turn)
        for (const call of unansweredToolCalls(this.store.recent)) {
          if (controller.signal.aborted) break
          if (!FOLDER_READ_ONLY_TOOLS.has(call.name)) this.folderMayHaveChanged = true
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
}
