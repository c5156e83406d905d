import type { Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import type { TeamEvent } from '../../../shared/events'
import type { MemberStatus } from '../../../shared/roster'
import type {
  InjectedMessage,
  ToolUseBlock,
  TranscriptRecord,
  NewTranscriptRecord,
  Usage,
} from '../../../shared/transcript'
import type { Clock } from '../clock'
import type { InboxConsumer, Batch } from '../mailbox/consumer'
import type { Mailbox } from '../mailbox/mailbox'
import type { ModelClient } from '../model/client'
import type { TeamPaths } from '../team-paths'
import { READ_INBOX_DEFINITION } from '../tools/team-tools'
import type { Tool } from '../tools/types'
import { awaitsModel, toConversation, unansweredToolCalls } from './conversation'
import { TranscriptStore } from './transcript-store'

export type AgentKind = 'lead' | 'teammate'

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
  readonly system: () => string
  readonly roundCap: number
  readonly emit: (event: TeamEvent) => void
  readonly setStatus: (status: MemberStatus, reason: string) => void
}

/** How one activation ended: the typed step the host acts on. */
export type ActivationEnd =
  | { readonly kind: 'idle' }
  | { readonly kind: 'round-cap'; readonly rounds: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'error'; readonly message: string; readonly code: string }

const RECENT_IDS = 5000

/**
 * One agent's loop: before every model call its new inbox messages are injected, then one
 * streamed model turn, then its tool calls; until a final answer with nothing new, the round
 * cap, a stop or an error. It wakes again when `wake()` is called (a message arrived).
 */
export class Agent {
  readonly store: TranscriptStore
  private readonly consumer: InboxConsumer
  private readonly toolsByName: Map<string, Tool>
  private running: Promise<void> | null = null
  private wakeRequested = false
  private controller: AbortController | null = null
  private usageTotal: Usage = { input_tokens: 0, output_tokens: 0 }
  private lastEnd: ActivationEnd = { kind: 'idle' }
  /** A wake-up owed to messages waiting behind an archived segment's grace window. */
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
    this.toolsByName = new Map(options.tools.map((tool) => [tool.definition.name, tool]))
    for (const record of this.store.all)
      if (record.kind === 'assistant') this.addUsage(record.usage)
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

  get lastActivation(): ActivationEnd {
    return this.lastEnd
  }

  /** Records a turn from the person (lead chat) or a task (spawn prompt), then wakes. */
  addUserTurn(from: string, text: string): void {
    this.record({ kind: 'user', from, text })
    this.store.flush()
    this.wake()
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

  /** Resolves when the agent is not running. */
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
      if (!(await this.hasWork())) continue
      this.options.setStatus('working', 'activated')
      this.lastEnd = await this.activate()
      const end = this.lastEnd
      switch (end.kind) {
        case 'idle':
          this.options.setStatus('idle', 'finished its turn')
          break
        case 'round-cap':
          this.record({
            kind: 'status',
            status: 'idle',
            reason: `stopped after the round cap of ${end.rounds} model calls; a new message wakes it`,
          })
          this.options.setStatus('idle', `round cap (${end.rounds}) reached`)
          break
        case 'stopped':
          this.record({ kind: 'status', status: 'idle', reason: 'stopped by the person' })
          this.options.setStatus('idle', 'stopped')
          break
        case 'error':
          this.record({ kind: 'status', status: 'error', reason: end.message })
          this.options.emit({
            type: 'agent-error',
            agent: this.name,
            code: end.code,
            message: end.message,
          })
          this.options.setStatus('error', end.message)
          break
      }
    } while (this.wakeRequested)
  }

  private async hasWork(): Promise<boolean> {
    // An activation that ended on a status (round cap, stop, error) goes on only for new
    // input: a message, a chat turn, a spawn prompt. Otherwise every wake (or a restart)
    // would hand a looping model another full round cap.
    const endedOnStatus = this.store.all[this.store.all.length - 1]?.kind === 'status'
    if (
      !endedOnStatus &&
      (awaitsModel(this.store.all) || unansweredToolCalls(this.store.all).length > 0)
    )
      return true
    return (await this.injectInbox()) > 0
  }

  private async activate(): Promise<ActivationEnd> {
    const controller = new AbortController()
    this.controller = controller
    try {
      this.answerInterruptedCalls()
      for (let rounds = 0; ;) {
        await this.injectInbox()
        if (!awaitsModel(this.store.all)) return { kind: 'idle' }
        if (rounds >= this.options.roundCap) return { kind: 'round-cap', rounds }
        const turn = await this.options.model().turn({
          agent: this.name,
          system: this.options.system(),
          messages: toConversation(this.store.all),
          tools: this.apiTools(),
          model: this.options.modelId?.(),
          signal: controller.signal,
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
        })
        rounds++
        this.record({ kind: 'assistant', ...turn })
        this.addUsage(turn.usage)
        this.options.emit({
          type: 'usage-reported',
          agent: this.name,
          usage: turn.usage,
          total: this.usageTotal,
        })
        for (const call of unansweredToolCalls(this.store.all)) {
          if (controller.signal.aborted) break
          await this.runTool(call, controller.signal)
        }
        if (controller.signal.aborted) {
          this.answerInterruptedCalls('stopped before it ran')
          return { kind: 'stopped' }
        }
      }
    } catch (error) {
      if (controller.signal.aborted) {
        this.answerInterruptedCalls('stopped while it ran')
        return { kind: 'stopped' }
      }
      return describeFailure(error)
    } finally {
      this.controller = null
    }
  }

  private async runTool(call: ToolUseBlock, signal: AbortSignal): Promise<void> {
    if (call.name === READ_INBOX_DEFINITION.name) {
      await this.readInboxTool(call)
      return
    }
    const tool = this.toolsByName.get(call.name)
    const outcome = tool
      ? await tool.run(call.input, {
          workspace: this.options.paths.workspace,
          agent: this.name,
          signal,
        })
      : {
          content: `Unknown tool "${call.name}". Available tools: ${[...this.toolsByName.keys(), READ_INBOX_DEFINITION.name].join(', ')}.`,
          isError: true,
        }
    this.record({
      kind: 'tool-result',
      tool_use_id: call.id,
      name: call.name,
      content: outcome.content,
      is_error: outcome.isError,
    })
    this.options.emit({
      type: 'tool-call-finished',
      agent: this.name,
      id: call.id,
      name: call.name,
      content: outcome.content,
      is_error: outcome.isError,
    })
  }

  /** read_inbox: the messages become the tool's result, recorded before the cursor moves. */
  private async readInboxTool(call: ToolUseBlock): Promise<void> {
    const batch = await this.consumer.poll()
    const messages = batch.deliveries.map((delivery) => injected(delivery.message))
    const content = JSON.stringify(
      messages.map((message) => ({
        ...message.extra,
        id: message.id,
        type: message.type,
        from: message.from,
        content: message.content,
        timestamp: message.timestamp,
      })),
      null,
      2,
    )
    this.record({
      kind: 'tool-result',
      tool_use_id: call.id,
      name: call.name,
      content,
      is_error: false,
      inbox_end: batch.end,
      inbox_ids: messages.map((message) => message.id),
    })
    this.commit(batch)
    this.options.emit({
      type: 'tool-call-finished',
      agent: this.name,
      id: call.id,
      name: call.name,
      content,
      is_error: false,
    })
  }

  /** Takes what is pending in the inbox into the transcript. Returns how many messages. */
  private async injectInbox(): Promise<number> {
    const batch = await this.consumer.poll()
    if (batch.waitMs > 0 && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null
        this.wake()
      }, batch.waitMs)
    }
    if (
      batch.deliveries.length === 0 &&
      batch.rejections.length === 0 &&
      batch.end.offset === batch.start.offset &&
      batch.end.segment === batch.start.segment
    )
      return 0
    if (batch.deliveries.length > 0) {
      this.record({
        kind: 'inbox',
        messages: batch.deliveries.map((delivery) => injected(delivery.message)),
        end: batch.end,
      })
    }
    this.commit(batch)
    return batch.deliveries.length
  }

  /** Durable first, then the cursor: a crash in between redelivers, and ids de-duplicate. */
  private commit(batch: Batch): void {
    this.store.flush()
    this.consumer.commit(batch)
    for (const rejection of batch.rejections) {
      this.options.emit({
        type: 'message-rejected',
        inbox: this.name,
        position: rejection.position,
        reason: rejection.reason,
      })
    }
    if (batch.deliveries.length > 0) {
      this.options.emit({
        type: 'message-delivered',
        agent: this.name,
        ids: batch.deliveries.map((delivery) => delivery.message.id),
      })
    }
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

  private addUsage(usage: Usage): void {
    this.usageTotal = {
      input_tokens: this.usageTotal.input_tokens + usage.input_tokens,
      output_tokens: this.usageTotal.output_tokens + usage.output_tokens,
    }
  }
}

function injected(message: {
  id: string
  type: InjectedMessage['type']
  from: string
  content: string
  timestamp: number
  extra: Readonly<Record<string, unknown>>
}): InjectedMessage {
  return {
    id: message.id,
    type: message.type,
    from: message.from,
    content: message.content,
    timestamp: message.timestamp,
    extra: { ...message.extra },
  }
}

function describeFailure(error: unknown): ActivationEnd {
  const status = (error as { status?: unknown }).status
  const name = error instanceof Error ? error.name : 'Error'
  const message = error instanceof Error ? error.message : String(error)
  const code = typeof status === 'number' ? `http-${status}` : name
  return {
    kind: 'error',
    code,
    message:
      typeof status === 'number'
        ? `The model endpoint answered ${status}: ${message}`
        : `${name}: ${message}`,
  }
}
