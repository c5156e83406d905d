import { TeamError } from '../../shared/errors'
import {
  agentErrorEvent,
  PENDING_COUNT_LIMIT,
  type InboxChange,
  type TeamEvent,
} from '../../shared/events'
import { newPendingTally, type Mailbox, type PendingTally } from './mailbox'

/**
 * How many messages wait in `name`'s inbox, from its cursor on (at most PENDING_COUNT_LIMIT).
 * An inbox refused as a file (a FIFO in its place) counts none: its agent's own error says what
 * is wrong with it.
 */
export async function countPending(
  mailbox: Mailbox,
  name: string,
  tally?: PendingTally,
): Promise<number> {
  try {
    return await mailbox.countPending(name, PENDING_COUNT_LIMIT, tally)
  } catch (error) {
    if (error instanceof TeamError) return 0
    throw error
  }
}

/** Changes that may bring mail win a merge: a wake must never be lost to a later commit. */
const BRINGS_MAIL: ReadonlySet<InboxChange> = new Set(['added', 'appended'])

/** The change two changes seen together are reported as. */
function merged(earlier: InboxChange | null, later: InboxChange): InboxChange {
  return earlier !== null && BRINGS_MAIL.has(earlier) && !BRINGS_MAIL.has(later) ? earlier : later
}

/**
 * The least time between two counts of one inbox. An inbox that changes all the time (a flood
 * of appends while its agent works) is then read a few times a second, not after every line;
 * a change to a quiet inbox is counted at once.
 */
export const COUNT_GAP_MS = 100

interface Counting {
  /** The count's run, until it ends. */
  done: Promise<void> | null
  /** The changes seen since the count under way began, as one; null: none. */
  next: InboxChange | null
}

/**
 * Turns changes of an inbox (the watcher's, and its consumer's commits) into `inbox-changed`
 * events that carry its pending count, so that no observer has to read the inbox to show it.
 * Counting reads the file, so it runs after the change: one count at a time per inbox, and one
 * more when the inbox changed meanwhile (COUNT_GAP_MS after the last one began at the soonest),
 * so the last event always holds a count read after the last change. Changes seen during a
 * count are reported as one, which says "added" or "appended" if any of them did (the host wakes
 * the agent on those).
 */
export class InboxFeed {
  private readonly counting = new Map<string, Counting>()
  /** Per inbox, what its last count judged (mailbox.ts): the next reads only what is new. */
  private readonly tallies = new Map<string, PendingTally>()
  /** Waits between counts, cut short by close(). */
  private readonly waits = new Set<() => void>()
  private closed = false

  constructor(
    private readonly mailbox: Mailbox,
    private readonly emit: (event: TeamEvent) => void,
    private readonly gapMs = COUNT_GAP_MS,
  ) {}

  changed(name: string, change: InboxChange): void {
    if (this.closed) return
    const running = this.counting.get(name)
    if (running !== undefined) {
      running.next = merged(running.next, change)
      return
    }
    const counting: Counting = { done: null, next: change }
    this.counting.set(name, counting)
    counting.done = this.run(name, counting)
  }

  /** Reports nothing more, once the counts under way are done (none reads after this). */
  async close(): Promise<void> {
    this.closed = true
    for (const stop of [...this.waits]) stop()
    await Promise.all([...this.counting.values()].map((running) => running.done))
  }

  private async run(name: string, counting: Counting): Promise<void> {
    try {
      while (counting.next !== null && !this.closed) {
        const change = counting.next
        counting.next = null
        const started = Date.now()
        const counted = await this.count(name)
        if (this.closed) return
        this.report(name, change, counted)
        if (counting.next !== null) await this.wait(started + this.gapMs - Date.now())
      }
    } finally {
      this.counting.delete(name)
    }
  }

  private async count(name: string): Promise<{ pending: number; failure: unknown }> {
    try {
      let tally = this.tallies.get(name)
      if (tally === undefined) {
        tally = newPendingTally()
        this.tallies.set(name, tally)
      }
      return { pending: await countPending(this.mailbox, name, tally), failure: null }
    } catch (error) {
      return { pending: 0, failure: error }
    }
  }

  /** The change is reported even when it could not be counted: it may bring mail. */
  private report(
    name: string,
    change: InboxChange,
    counted: { pending: number; failure: unknown },
  ): void {
    const { pending, failure } = counted
    if (failure !== null)
      this.emit(
        agentErrorEvent(
          name,
          'internal',
          `The inbox of "${name}" could not be counted: ${failure instanceof Error ? failure.message : String(failure)}`,
        ),
      )
    this.emit({ type: 'inbox-changed', name, change, pending })
  }

  private wait(milliseconds: number): Promise<void> {
    if (milliseconds <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const stop = (): void => {
        clearTimeout(timer)
        this.waits.delete(stop)
        resolve()
      }
      const timer = setTimeout(stop, milliseconds)
      this.waits.add(stop)
    })
  }
}
