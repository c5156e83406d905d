import { agentErrorEvent } from '../../shared/events'
import { TeamError } from '../../shared/errors'
import type { ModelUsage } from '../../shared/cost'
import type { EngineName } from '../../shared/engine'
import type { NewTranscriptRecord, TranscriptRecord, Usage } from '../../shared/transcript'
import type { InboxConsumer } from '../mailbox/consumer'
import { describeEnd } from './activation-end'
import type { ActivationEnd, AgentOptions } from './agent-types'
import { InboxIntake } from './intake'
import type { TeamAgent } from './team-agent'
import { TranscriptStore } from './transcript-store'
import { UsageMeter } from './usage-meter'

const RECENT_IDS = 5000

/**
 * What every engine's agent is the same in: its transcript, its inbox taken in exactly once
 * (the intake records mail before the cursor moves), its usage, one activation at a time, and
 * how an activation's end becomes a status. An engine supplies `runUntilQuiet`, which takes the
 * work there is and runs activations until nothing is left.
 */
export abstract class AgentCore implements TeamAgent {
  abstract readonly engine: EngineName
  readonly store: TranscriptStore
  protected readonly consumer: InboxConsumer
  protected readonly intake: InboxIntake
  protected readonly meter: UsageMeter
  protected running: Promise<void> | null = null
  protected wakeRequested = false
  /** Set by `resume()`: go on even though the last activation ended on a status. */
  protected resumeRequested = false
  protected shutdownReason: string | null = null
  protected controller: AbortController | null = null
  protected lastEnd: ActivationEnd = { kind: 'idle' }
  private wakeTimer: NodeJS.Timeout | null = null
  protected readonly events: AgentOptions['events']

  /** Where its folder's checkpoints are queued (the tools port's). */
  private readonly checkpoint: AgentOptions['tools']['checkpoint']
  /**
   * Whether its folder may have changed since the last turn checkpoint it asked for: a tool
   * that may change files ran since (anything not in FOLDER_READ_ONLY_TOOLS), or no turn
   * checkpoint was asked for in this activation. Cleared only by a loop that sees every tool
   * call it runs; while set, the next checkpoint reads the folder afresh.
   */
  protected folderMayHaveChanged = true

  constructor(options: Pick<AgentOptions, 'identity' | 'mail' | 'events' | 'clock' | 'tools'>) {
    const { identity, mail, events, clock } = options
    this.name = identity.name
    this.events = events
    this.checkpoint = options.tools.checkpoint
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
    this.meter = UsageMeter.fromTotals(this.store.usageTotals)
  }

  readonly name: string

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

  recordUndo(record: Extract<NewTranscriptRecord, { kind: 'undo' }>): void {
    this.record(record)
    this.store.flush()
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

  /** Stops the model call and any running tool; the activation ends as `stopped`. */
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

  /** Takes the work there is and runs activations until none is left (or one fails). */
  protected abstract runUntilQuiet(): Promise<void>

  /** Ends the agent in `error` after an unexpected throw, reporting it however far it gets. */
  protected failed(error: unknown): void {
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

  /** An activation's end as the status record, the totals, the error event and the status. */
  protected settle(end: ActivationEnd): void {
    // The folder as it leaves it: what changes after this is someone else's doing.
    void this.checkpoint?.({
      kind: 'rest',
      turnSeq: this.store.length + 1,
      ...(this.folderMayHaveChanged ? {} : { repeat: true }),
    })
    this.folderMayHaveChanged = true
    const outcome = describeEnd(end)
    if (outcome.record !== null)
      this.record({
        kind: 'status',
        status: outcome.status,
        reason: outcome.record,
        ...(outcome.facts.cause === null ? {} : { cause: outcome.facts.cause }),
      })
    this.store.saveTotals()
    // A refused key is reported once for the whole team by the host, not per agent.
    if (end.kind === 'error' && end.code !== 'auth')
      this.events.emit(agentErrorEvent(this.name, end.code, end.message))
    this.events.setStatus(outcome.status, outcome.reason, outcome.facts)
  }

  protected wakeLater(milliseconds: number): void {
    if (this.wakeTimer) return
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null
      this.wake()
    }, milliseconds)
  }

  protected record(record: NewTranscriptRecord): TranscriptRecord {
    const stamped = this.store.append(record)
    this.events.emit({ type: 'transcript-appended', agent: this.name, record: stamped })
    return stamped
  }

  /** A model call's tokens (a turn's or a summary's): counted, and reported with the total. */
  protected countUsage(usage: Usage, model: string): void {
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
