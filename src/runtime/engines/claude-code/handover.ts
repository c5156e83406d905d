import type { TranscriptRecord } from '../../../shared/transcript'
import { randomBytes } from 'node:crypto'
import { deliveryMark, deliveryText, logHolds, undelivered } from './delivery'
import { endLeftBehind, killGroup, type LaunchedProcess } from './process'
import { NEW_SESSION, type ClaudeSession, type ClaudeSessions } from './sessions'

/**
 * One teammate's side of its session record: what was handed to the session, what the session
 * confirmed, its id, and its process while one runs. Every change is written to the app's
 * record before the step it guards (a hand-over is recorded before it is sent).
 */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export class SessionHandover {
  /** The last record handed to the live session, not yet confirmed by its answer. */
  private handedThrough = 0

  constructor(
    private readonly name: string,
    private readonly sessions: ClaudeSessions,
    private readonly configFolder: string,
    /** The transcript's records after a seq (read back only that far). */
    private readonly transcript: (after: number) => readonly TranscriptRecord[],
  ) {}

  get session(): ClaudeSession {
    return this.sessions.get(this.name)
  }

  /** The person's turns and mail the session has not been handed, in order. */
  pending(): TranscriptRecord[] {
    const through = Math.max(this.session.sent_through, this.handedThrough)
    return undelivered(this.transcript(through), through)
  }

  /** Hands what the session has not been handed over, as one text; null: nothing. */
  handOver(): string | null {
    const pending = this.pending()
    const through = pending[pending.length - 1]?.seq
    if (through === undefined) return null
    this.handedThrough = through
    // Durable before it is sent: a restart knows to look in the session's log for its mark.
    const nonce = randomBytes(8).toString('hex')
    this.update({ handed_through: through, handed_nonce: nonce })
    return deliveryText(pending, deliveryMark(through, nonce))
  }

  /** The session answered: what was handed over is in it. */
  confirm(): void {
    if (this.handedThrough > this.session.sent_through)
      this.update({ sent_through: this.handedThrough })
  }

  /**
   * The activation ended (its process has exited), with the transcript `through` this seq:
   * what is unconfirmed is looked for in the log at the next start.
   */
  ended(through: number): void {
    this.handedThrough = 0
    this.update({ process: null, seen_through: through })
  }

  /**
   * After a crash between a hand-over and the session's answer, the session's own log says
   * whether it took the hand-over: what it took is not handed over again (exactly once), and
   * true says the session holds it unanswered, so it must go on.
   */
  recover(transcriptLength: number): boolean {
    const session = this.session
    if (session.session_id === null || session.handed_through <= session.sent_through) return false
    const mark = deliveryMark(session.handed_through, session.handed_nonce)
    const took =
      session.handed_through <= transcriptLength &&
      logHolds(this.configFolder, session.session_id, mark)
    const through = took ? session.handed_through : session.sent_through
    this.update({ sent_through: through, handed_through: through })
    return took
  }

  /**
   * What another engine answered is not handed to the session: everything up to the last turn
   * another engine wrote (the first time this teammate runs on Claude Code, or since it last
   * ran here). The person's turns and mail after that turn are still handed over.
   */
  adopt(records: readonly TranscriptRecord[]): void {
    // A record of another transcript (this one was removed and begun again: it began at
    // another time, or is shorter than what the record says was handed): it starts afresh.
    const start = records[0]?.at ?? null
    const last = records.at(-1)?.seq ?? 0
    const known = this.session
    const stale =
      (known.transcript_start !== null && known.transcript_start !== start) ||
      last < Math.max(known.sent_through, known.handed_through)
    if (this.sessions.has(this.name) && stale)
      this.update({ ...NEW_SESSION, transcript_start: start })
    else if (this.sessions.has(this.name) && known.transcript_start === null && start !== null)
      this.update({ transcript_start: start })
    const session = this.session
    const own = this.sessions.has(this.name)
      ? Math.max(session.seen_through, session.handed_through, session.sent_through)
      : 0
    const answered = records.findLast((record) => record.kind === 'assistant' && record.seq > own)
    if (answered !== undefined)
      this.update({ sent_through: answered.seq, handed_through: answered.seq })
  }

  /** A process a killed run of the app left: ended, so its session log is final. */
  async endLeftBehind(): Promise<void> {
    const left = this.session.process
    if (left === null) return
    await endLeftBehind(left)
    this.update({ process: null })
  }

  /** Ends its running process and its group now (the person stopped it). */
  kill(): void {
    const running = this.session.process
    if (running !== null) killGroup(running)
  }

  started(process: LaunchedProcess): void {
    this.update({ process })
  }

  /**
   * The id the session announced; a new one replaces a lost one. It comes from the sandboxed
   * process's output, so only a UUID is taken (it names a file the app reads later).
   */
  named(id: string): void {
    if (!SESSION_ID.test(id)) return
    if (this.session.session_id !== id) this.update({ session_id: id })
  }

  /** Its session is gone: the next activation starts a new one and hands it all pending. */
  lost(): void {
    this.update({ session_id: null, handed_through: this.session.sent_through })
  }

  private update(change: Partial<ClaudeSession>): void {
    this.sessions.set(this.name, { ...this.session, ...change })
  }
}
