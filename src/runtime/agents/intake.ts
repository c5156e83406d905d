import type { TeamEvent } from '../../shared/events'
import { plainMessage, type MailMessage } from '../../shared/messages'
import type {
  InjectedMessage,
  NewTranscriptRecord,
  ToolUseBlock,
  TranscriptRecord,
} from '../../shared/transcript'
import type { Clock } from '../system/clock'
import type { Batch, Delivery, InboxConsumer, Rejection } from '../mailbox/consumer'
import { comparePositions } from '../mailbox/position'
import type { TranscriptStore } from './transcript-store'

/**
 * Without a change signal the inbox is still polled this often (while the agent runs): a safety
 * net should a signal ever be missed.
 */
export const RECHECK_MS = 5000

export interface IntakeOptions {
  readonly name: string
  readonly consumer: InboxConsumer
  readonly store: TranscriptStore
  readonly record: (record: NewTranscriptRecord) => TranscriptRecord
  readonly emit: (event: TeamEvent) => void
  /** Why a delivered message must be refused (a protocol rule), or null to take it. */
  readonly judge: (message: MailMessage) => string | null
  /** Asks for a wake-up later: messages wait behind an archived segment's grace window. */
  readonly wakeLater: (milliseconds: number) => void
  readonly clock: Clock
  /**
   * Whether every change to the inbox is signalled through `markChanged` (in-process sends, and
   * the watcher for other programs' appends). Without signals every call polls.
   */
  readonly signalled: boolean
}

/**
 * How mail enters an agent's transcript, exactly once: poll the inbox, judge each message,
 * record the accepted ones durably, and only then commit the cursor.
 *
 * The inbox is polled only when it may hold something new (a change was signalled, a poll took
 * something and may have stopped short, an archived segment is in its grace window), or after
 * RECHECK_MS without a poll: the watcher already says when mail came, so an empty poll before
 * every model call would be wasted reads.
 */
export class InboxIntake {
  private changed = true
  private lastPollAt = Number.NEGATIVE_INFINITY

  constructor(private readonly options: IntakeOptions) {}

  /** Something may have been appended to the inbox: the next injection or read_inbox polls. */
  markChanged(): void {
    this.changed = true
  }

  /** Injects what is pending as an `inbox` record. Returns how many messages were taken. */
  async inject(): Promise<number> {
    const batch = await this.pollIfChanged()
    if (batch === null || isEmpty(batch)) return 0
    const { taken, refused } = this.judge(batch.deliveries)
    if (taken.length > 0)
      this.options.record({ kind: 'inbox', messages: taken.map(injected), end: batch.end })
    await this.commit(batch, taken, refused)
    return taken.length
  }

  /**
   * read_inbox: takes the pending messages, as the tool's result, recorded before the cursor
   * moves. A command, like `inject`: what it returns is consumed.
   */
  async takeForReadInbox(call: ToolUseBlock): Promise<string> {
    const batch = await this.pollIfChanged()
    const { taken, refused } = this.judge(batch?.deliveries ?? [])
    const content = JSON.stringify(taken.map(injected).map(plainMessage), null, 2)
    this.options.record({
      kind: 'tool-result',
      tool_use_id: call.id,
      name: call.name,
      content,
      is_error: false,
      inbox_end: batch?.end ?? this.options.consumer.position,
      inbox_ids: taken.map((message) => message.id),
    })
    // Nothing read and the cursor where it was: no commit, and so no fsync, is needed.
    if (batch !== null && !isEmpty(batch)) await this.commit(batch, taken, refused)
    return content
  }

  /** The pending batch, or null when nothing can have changed since the last empty poll. */
  private async pollIfChanged(): Promise<Batch | null> {
    const now = this.options.clock.now()
    if (this.options.signalled && !this.changed && now - this.lastPollAt < RECHECK_MS) return null
    // Cleared before reading: a signal that comes while the poll runs keeps it set for the next.
    this.changed = false
    this.lastPollAt = now
    let batch: Batch
    try {
      batch = await this.options.consumer.poll()
    } catch (error) {
      // The signal is not used up by a read that failed: the next poll reads again.
      this.changed = true
      throw error
    }
    if (batch.waitMs > 0) this.options.wakeLater(batch.waitMs)
    // A batch may stop short of the end (a size limit, the end of an archived segment), and a
    // segment in its grace window may still grow: look again next time.
    if (batch.waitMs > 0 || !isEmpty(batch)) this.changed = true
    return batch
  }

  private judge(deliveries: readonly Delivery[]): { taken: MailMessage[]; refused: Rejection[] } {
    const taken: MailMessage[] = []
    const refused: Rejection[] = []
    for (const delivery of deliveries) {
      const reason = this.options.judge(delivery.message)
      if (reason === null) taken.push(delivery.message)
      else
        refused.push({
          inbox: this.options.name,
          position: delivery.position,
          reason: `${delivery.message.type} ${delivery.message.id} from ${delivery.message.from}: ${reason}`,
          rawBase64: '',
        })
    }
    return { taken, refused }
  }

  /** Durable first, then the cursor: a crash in between redelivers, and ids de-duplicate. */
  private async commit(
    batch: Batch,
    taken: readonly MailMessage[],
    refused: readonly Rejection[],
  ): Promise<void> {
    await this.options.store.flushAsync()
    this.options.consumer.commit(batch, refused)
    for (const rejection of [...batch.rejections, ...refused]) {
      this.options.emit({
        type: 'message-rejected',
        inbox: this.options.name,
        position: rejection.position,
        reason: rejection.reason,
      })
    }
    if (taken.length > 0) {
      this.options.emit({
        type: 'message-delivered',
        agent: this.options.name,
        ids: taken.map((message) => message.id),
      })
    }
  }
}

/** Whether a polled batch holds nothing and leaves the cursor where it was. */
function isEmpty(batch: Batch): boolean {
  return (
    batch.deliveries.length === 0 &&
    batch.rejections.length === 0 &&
    comparePositions(batch.end, batch.start) === 0
  )
}

export function injected(message: MailMessage): InjectedMessage {
  return {
    id: message.id,
    type: message.type,
    from: message.from,
    content: message.content,
    timestamp: message.timestamp,
    extra: { ...message.extra },
  }
}
