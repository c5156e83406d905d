import { mkdirSync, renameSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import type { MailMessage } from '../../shared/messages'
import { systemClock, type Clock } from '../system/clock'
import { appendOnceSync, fsyncDirectorySync, writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'
import { scanSegment } from './lines'
import { acquireFileLock, type FileLock } from '../fs/file-lock'
import { RecentIds } from './recent-ids'
import { DeliveredIdsLog, readIds } from './delivered-ids'
import { comparePositions, isPosition, START, type Position } from './position'
import { archivedSegmentCount, isSealed, sealWaitMs, segmentPath } from './segments'

export const CURSOR_FORMAT_VERSION = 1
const RECENT_IDS = 20_000

export interface Delivery {
  readonly message: MailMessage
  readonly position: Position
}

export interface Rejection {
  readonly inbox: string
  readonly position: Position
  readonly reason: string
  readonly rawBase64: string
}

export interface Batch {
  readonly start: Position
  readonly end: Position
  readonly deliveries: readonly Delivery[]
  readonly rejections: readonly Rejection[]
  /**
   * When more than zero: the cursor waits at the end of an archived segment that is still in its
   * grace window, and messages may be waiting behind it; poll again after this many ms.
   */
  readonly waitMs: number
}

export interface ConsumerOptions {
  /**
   * The furthest position the consumer already recorded durably (kept with its own records, e.g.
   * in its transcript). A crash after recording but before the commit left the cursor behind it;
   * opening fast-forwards, so nothing recorded is delivered again.
   */
  readonly recordedUpTo?: Position
  /** Ids already delivered (the consumer's recent records), to refuse duplicates of them. */
  readonly recentIds?: Iterable<string>
  /**
   * Keep the ids this consumer delivers in `mailbox/<name>/delivered-ids.txt`, for a consumer with
   * no records of its own (the CLI's drain): a repeated id is then refused in later runs too.
   * Every consumer reads that file when it exists.
   */
  readonly keepDeliveredIds?: boolean
  readonly clock?: Clock
}

/**
 * The one consumer of an inbox. `poll` reads what is pending from the committed cursor on;
 * the caller records the batch durably, then `commit`s it. Nothing is ever truncated or
 * rewritten: the cursor is a byte position, kept in a file of its own, replaced atomically.
 */
export class InboxConsumer {
  private cursor: Position
  private archived: number
  private readonly recent: RecentIds
  private readonly deliveredLog: DeliveredIdsLog | null
  private closed = false

  private constructor(
    private readonly paths: TeamPaths,
    readonly name: string,
    private readonly lock: FileLock,
    private readonly clock: Clock,
    options: ConsumerOptions,
  ) {
    this.archived = archivedSegmentCount(paths, name)
    this.cursor = readCursor(paths, name)
    // The window is at least RECENT_IDS, and holds every id the caller gave.
    this.deliveredLog = options.keepDeliveredIds
      ? DeliveredIdsLog.open(paths.deliveredIds(name), RECENT_IDS)
      : null
    const kept = this.deliveredLog?.ids ?? readIds(paths.deliveredIds(name)).slice(-RECENT_IDS)
    const given = [...kept, ...(options.recentIds ?? [])]
    this.recent = new RecentIds(Math.max(RECENT_IDS, given.length), given)
    if (options.recordedUpTo && comparePositions(options.recordedUpTo, this.cursor) > 0) {
      this.writeCursor(options.recordedUpTo)
    }
  }

  static open(paths: TeamPaths, name: string, options: ConsumerOptions = {}): InboxConsumer {
    const lock = acquireFileLock(
      paths.consumerLock(name),
      `consume ${name}`,
      (holder) =>
        `The inbox of "${name}" is already being consumed by ${holder}; only one consumer may read an inbox at a time. Stop that one first.`,
      'inbox-busy',
    )
    try {
      return new InboxConsumer(paths, name, lock, options.clock ?? systemClock, options)
    } catch (error) {
      lock.release()
      throw error
    }
  }

  /** The committed cursor: everything before it has been delivered (or rejected). */
  get position(): Position {
    return this.cursor
  }

  /** The pending lines from the cursor on, judged; nothing changes until `commit`. */
  async poll(maxBytes?: number): Promise<Batch> {
    this.assertOpen()
    const deliveries: Delivery[] = []
    const rejections: Rejection[] = []
    const seen = new Set<string>()
    let at = this.cursor
    let waitMs = 0
    for (;;) {
      const path = segmentPath(this.paths, this.name, at.segment, this.archived)
      const scan = await scanSegment(path, this.name, at.segment, at.offset, maxBytes)
      for (const line of scan.lines) {
        if (line.kind === 'invalid') {
          rejections.push({
            inbox: this.name,
            position: line.position,
            reason: line.reason,
            rawBase64: line.rawBase64,
          })
        } else if (this.recent.has(line.message.id) || !addNew(seen, line.message.id)) {
          rejections.push({
            inbox: this.name,
            position: line.position,
            reason: `duplicate of message ${line.message.id}, which was already delivered`,
            rawBase64: '',
          })
        } else {
          deliveries.push({ message: line.message, position: line.position })
        }
      }
      at = { segment: at.segment, offset: scan.next }
      const isArchived = at.segment <= this.archived
      if (!isArchived || !scan.atEnd) break
      if (!isSealed(path, this.clock.now())) {
        waitMs = sealWaitMs(path, this.clock.now())
        break
      }
      if (scan.pendingBytes > 0) {
        rejections.push({
          inbox: this.name,
          position: at,
          reason: 'torn line: the archived segment ends without a newline',
          rawBase64: '',
        })
      }
      at = { segment: at.segment + 1, offset: 0 }
      if (deliveries.length > 0) break
    }
    return { start: this.cursor, end: at, deliveries, rejections, waitMs }
  }

  /** Marks a polled batch as consumed, after the caller recorded it durably. */
  commit(batch: Batch, alsoRejected: readonly Rejection[] = []): void {
    this.assertOpen()
    if (comparePositions(batch.start, this.cursor) !== 0) {
      throw new TeamError(
        'stale-batch',
        `This batch of "${this.name}" starts at a position that is no longer the cursor (was it committed already?).`,
      )
    }
    const rejections = [...batch.rejections, ...alsoRejected]
    if (rejections.length > 0) {
      const stamp = this.clock.now() / 1000
      const lines = rejections.map((rejection) =>
        JSON.stringify({
          v: 1,
          segment: rejection.position.segment,
          offset: rejection.position.offset,
          reason: rejection.reason,
          raw_base64: rejection.rawBase64,
          timestamp: stamp,
        }),
      )
      mkdirSync(this.paths.mailboxState(this.name), { recursive: true })
      appendOnceSync(this.paths.rejected(this.name), Buffer.from(`${lines.join('\n')}\n`), {
        durable: true,
      })
    }
    if (this.deliveredLog !== null && batch.deliveries.length > 0) {
      mkdirSync(this.paths.mailboxState(this.name), { recursive: true })
      this.deliveredLog.append(batch.deliveries.map((delivery) => delivery.message.id))
    }
    for (const delivery of batch.deliveries) this.recent.add(delivery.message.id)
    if (comparePositions(batch.end, this.cursor) > 0) this.writeCursor(batch.end)
  }

  /**
   * Moves the live file aside into the archive: delivered messages stay readable there, the inbox
   * starts a new segment, and the cursor (which names a segment) stays true. Pending lines in the
   * moved file are still delivered from the archive.
   */
  archive(): { segment: number } {
    this.assertOpen()
    const segment = this.archived + 1
    mkdirSync(this.paths.archiveDirectory(this.name), { recursive: true })
    try {
      renameSync(this.paths.inbox(this.name), this.paths.archivedSegment(this.name, segment))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { segment: this.archived }
      throw error
    }
    fsyncDirectorySync(this.paths.archiveDirectory(this.name))
    fsyncDirectorySync(this.paths.inboxDirectory)
    this.archived = segment
    return { segment }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.lock.release()
  }

  private writeCursor(position: Position): void {
    mkdirSync(this.paths.mailboxState(this.name), { recursive: true })
    writeFileAtomicSync(
      this.paths.cursor(this.name),
      `${JSON.stringify({ v: CURSOR_FORMAT_VERSION, segment: position.segment, offset: position.offset, updated_at: this.clock.now() / 1000 })}\n`,
    )
    this.cursor = position
  }

  private assertOpen(): void {
    if (this.closed)
      throw new TeamError('consumer-closed', `The consumer of "${this.name}" is closed.`)
  }
}

/** Adds `id` to `ids`; false when it was there already. One lookup, where has-then-add is two. */
function addNew(ids: Set<string>, id: string): boolean {
  const before = ids.size
  ids.add(id)
  return ids.size !== before
}

/** The committed cursor of `name`'s inbox (the start when there is none yet). */
export function readCursor(paths: TeamPaths, name: string): Position {
  const text = readRegularTextSync(paths.cursor(name), {
    what: `The cursor of "${name}"'s inbox`,
    maxBytes: FILE_CAPS.cursor,
    remedy: `Move it aside to re-read the inbox of "${name}" from the start (ids keep repeats out of the transcript).`,
  })
  if (text === null) return START
  let record: unknown
  try {
    record = JSON.parse(text)
  } catch {
    record = null
  }
  if (!isPosition(record) || (record as { v?: unknown }).v !== CURSOR_FORMAT_VERSION) {
    // Never guess a cursor: a wrong one would lose or repeat messages.
    throw new TeamError(
      'file-invalid',
      `The cursor file ${paths.cursor(name)} is damaged; move it aside to re-read the inbox of "${name}" from the start (ids keep repeats out of the transcript).`,
    )
  }
  return { segment: record.segment, offset: record.offset }
}
