import { mkdirSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import {
  MAX_LINE_BYTES,
  MESSAGE_TYPES,
  extraProblem,
  isMessageType,
  messageToLine,
  type EntryState,
  type MailMessage,
} from '../../shared/messages'
import {
  LEAD,
  NAME_RULE,
  REACTIONS_SENDER,
  USER,
  isValidName,
  nameProblem,
} from '../../shared/names'
import { randomIds, systemClock, type Clock, type IdSource } from '../system/clock'
import { appendOnceSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'
import { InboxConsumer, readCursor, type ConsumerOptions } from './consumer'
import { scanSegment } from './lines'
import { comparePositions, START, type Position } from './position'
import { archivedSegmentCount, segmentPath } from './segments'

/** How much of an inbox a count reads at a time. */
const COUNT_READ_BYTES = 1024 * 1024

export interface SendRequest {
  readonly from: string
  readonly to: string
  readonly content: string
  readonly type?: string
  /** Extra fields (request_id, approve, …), written beside the core ones. */
  readonly extra?: Readonly<Record<string, unknown>>
}

export type { EntryState }

export interface InboxEntry {
  readonly position: Position
  readonly state: EntryState
  readonly message?: MailMessage
  readonly reason?: string
  readonly rawBase64?: string
}

export interface InboxPage {
  readonly entries: InboxEntry[]
  /** Where the next page starts, or null at the end of the inbox. */
  readonly next: Position | null
}

export interface MailboxOptions {
  /** The names that may receive mail besides `lead` (the roster's members). */
  readonly members: () => Iterable<string>
  readonly clock?: Clock
  readonly ids?: IdSource
}

/** The extras of a request that has none: shared, since a message is never changed. */
const NO_EXTRA: Readonly<Record<string, unknown>> = Object.freeze({})

const RESERVED_EXTRA_KEYS = new Set(['v', 'id', 'type', 'from', 'to', 'content', 'timestamp'])

/**
 * The sending and reading side of the team's mailboxes. A send validates, then appends one
 * complete line in one write; consuming goes through an `InboxConsumer`.
 */
export class Mailbox {
  private readonly clock: Clock
  private readonly ids: IdSource
  /** Each recipient's inbox path, joined once. */
  private readonly inboxPaths = new Map<string, string>()
  private madeInboxDirectory = false

  constructor(
    readonly paths: TeamPaths,
    private readonly options: MailboxOptions,
  ) {
    this.clock = options.clock ?? systemClock
    this.ids = options.ids ?? randomIds(this.clock)
  }

  /** Validates and appends one message; returns it as written. Throws a TeamError otherwise. */
  send(request: SendRequest): MailMessage {
    const message = this.compose(request)
    const line = lineOf(message)
    if (line.bytes - 1 > MAX_LINE_BYTES) {
      throw new TeamError(
        'message-too-large',
        `The message is ${line.bytes - 1} bytes; a mailbox line may be at most ${MAX_LINE_BYTES} bytes. Send a path to a file instead.`,
      )
    }
    this.append(request.to, line)
    return message
  }

  /** Sends `content` to every member but the sender (and to the lead, unless it is the sender). */
  broadcast(request: {
    from: string
    content: string
    extra?: Readonly<Record<string, unknown>>
  }): MailMessage[] {
    this.assertSender(request.from)
    const recipients = [...new Set([LEAD, ...this.options.members()])].filter(
      (name) => name !== request.from,
    )
    return recipients.map((to) => this.send({ ...request, to, type: 'broadcast' }))
  }

  openConsumer(name: string, options: ConsumerOptions = {}): InboxConsumer {
    this.assertInboxName(name)
    return InboxConsumer.open(this.paths, name, { clock: this.clock, ...options })
  }

  /**
   * Every line of `name`'s inbox from `from` on, each with its state, without consuming:
   * pending, delivered, or rejected with its reason.
   */
  async peek(
    name: string,
    options: { from?: Position; limit?: number; pendingOnly?: boolean } = {},
  ): Promise<InboxPage> {
    this.assertInboxName(name)
    const limit = options.limit ?? 500
    const cursor = readCursor(this.paths, name)
    const archived = archivedSegmentCount(this.paths, name)
    const rejectedHere = readRejections(this.paths, name)
    let at = options.from ?? START
    if (options.pendingOnly && comparePositions(at, cursor) < 0) at = cursor
    const entries: InboxEntry[] = []
    while (entries.length < limit) {
      const path = segmentPath(this.paths, name, at.segment, archived)
      const scan = await scanSegment(path, name, at.segment, at.offset, 4 * 1024 * 1024)
      let stoppedAt: Position | null = null
      for (const line of scan.lines) {
        if (entries.length >= limit) {
          stoppedAt = line.position
          break
        }
        const delivered = comparePositions(line.position, cursor) < 0
        if (line.kind === 'invalid') {
          entries.push({
            position: line.position,
            state: 'rejected',
            reason: line.reason,
            rawBase64: line.rawBase64,
          })
          continue
        }
        const rejectedReason = rejectedHere.get(`${line.position.segment}:${line.position.offset}`)
        if (rejectedReason !== undefined) {
          entries.push({
            position: line.position,
            state: 'rejected',
            reason: rejectedReason,
            message: line.message,
          })
        } else {
          entries.push({
            position: line.position,
            state: delivered ? 'delivered' : 'pending',
            message: line.message,
          })
        }
      }
      if (stoppedAt !== null) return { entries, next: stoppedAt }
      if (scan.next > at.offset) {
        at = { segment: at.segment, offset: scan.next }
        continue
      }
      if (at.segment > archived) return { entries, next: null }
      at = { segment: at.segment + 1, offset: 0 }
    }
    return { entries, next: at }
  }

  /**
   * How many messages wait in `name`'s inbox, from its cursor on, up to `limit`: the lines that
   * read as messages (the others are set aside unread). It keeps no message and reads a little
   * at a time, as it runs after every change of the inbox. A line the consumer will refuse (a
   * duplicate, a claim the record does not hold) counts until its commit, as `peek` shows it.
   */
  async countPending(name: string, limit: number, tally?: PendingTally): Promise<number> {
    this.assertInboxName(name)
    const archived = archivedSegmentCount(this.paths, name)
    let at = readCursor(this.paths, name)
    // In the live segment (the usual case) only what was appended since the last count is read.
    if (tally !== undefined && at.segment > archived)
      return countLive(tally, at, limit, (from) =>
        scanSegment(
          segmentPath(this.paths, name, at.segment, archived),
          name,
          at.segment,
          from,
          COUNT_READ_BYTES,
        ),
      )
    let count = 0
    for (;;) {
      const path = segmentPath(this.paths, name, at.segment, archived)
      const scan = await scanSegment(path, name, at.segment, at.offset, COUNT_READ_BYTES)
      for (const line of scan.lines) if (line.kind === 'message') count++
      if (count >= limit) return limit
      if (scan.next > at.offset) at = { segment: at.segment, offset: scan.next }
      else if (at.segment > archived) return count
      else at = { segment: at.segment + 1, offset: 0 }
    }
  }

  /** The message a valid request makes, with its id and time; throws a TeamError otherwise. */
  private compose(request: SendRequest): MailMessage {
    const type = request.type ?? 'message'
    if (!isMessageType(type)) {
      throw new TeamError(
        'invalid-message-type',
        `Invalid message type "${type}". Valid types: ${MESSAGE_TYPES.join(', ')}.`,
      )
    }
    this.assertSender(request.from)
    this.assertRecipient(request.to)
    if (typeof request.content !== 'string')
      throw new TeamError('invalid-message', 'The content of a message must be a string.')
    return {
      id: this.ids.next('m'),
      type,
      from: request.from,
      to: request.to,
      content: request.content,
      timestamp: this.clock.now() / 1000,
      extra: request.extra ? checkExtra(request.extra) : NO_EXTRA,
    }
  }

  /**
   * One append of `line` to `to`'s inbox. The folder is made by the first send only, and again
   * when an append finds it missing (removed since, e.g. by a reset), so a send does not pay for
   * a mkdir it almost never needs.
   */
  private append(to: string, line: MailboxLine): void {
    const path = this.inboxPath(to)
    if (!this.madeInboxDirectory) this.makeInboxDirectory()
    try {
      appendOnceSync(path, line.text, { bytes: line.bytes })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.makeInboxDirectory()
      appendOnceSync(path, line.text, { bytes: line.bytes })
    }
  }

  private makeInboxDirectory(): void {
    mkdirSync(this.paths.inboxDirectory, { recursive: true })
    this.madeInboxDirectory = true
  }

  private inboxPath(name: string): string {
    let path = this.inboxPaths.get(name)
    if (path === undefined) {
      path = this.paths.inbox(name)
      this.inboxPaths.set(name, path)
    }
    return path
  }

  private isMember(name: string): boolean {
    for (const member of this.options.members()) if (member === name) return true
    return false
  }

  private assertSender(from: string): void {
    if (typeof from !== 'string' || !isValidName(from)) {
      throw new TeamError(
        'invalid-name',
        `Invalid sender: ${nameProblem(String(from)) ?? 'not a name'} (${NAME_RULE}).`,
      )
    }
    if (from === USER || from === LEAD || from === REACTIONS_SENDER) return
    if (!this.isMember(from)) {
      throw new TeamError('unknown-agent', `Unknown sender "${from}": not on the team's roster.`)
    }
  }

  private assertRecipient(to: string): void {
    if (typeof to !== 'string' || !isValidName(to)) {
      throw new TeamError(
        'invalid-name',
        `Invalid recipient: ${nameProblem(String(to)) ?? 'not a name'} (${NAME_RULE}).`,
      )
    }
    if (to === LEAD) return
    if (to === USER)
      throw new TeamError(
        'unknown-recipient',
        `"${USER}" is the person, who has no inbox; send to "${LEAD}" or a teammate.`,
      )
    if (!this.isMember(to)) {
      const members = [...this.options.members()]
      const known = members.length > 0 ? members.join(', ') : 'none yet'
      throw new TeamError(
        'unknown-recipient',
        `Unknown recipient "${to}": not on the team's roster (members: ${known}; "${LEAD}" is always valid). Spawn it first, or check the spelling.`,
      )
    }
  }

  private assertInboxName(name: string): void {
    if (!isValidName(name) || name === USER) {
      throw new TeamError(
        'invalid-name',
        `No inbox "${name}": ${nameProblem(name) ?? `"${USER}" has no inbox`} (${NAME_RULE}).`,
      )
    }
  }
}

function checkExtra(extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const checked: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(extra)) {
    if (RESERVED_EXTRA_KEYS.has(key) || key === '__proto__') {
      throw new TeamError(
        'invalid-message',
        `The extra field "${key}" is reserved; choose another name.`,
      )
    }
    if (value !== undefined) checked[key] = value
  }
  // The reader would refuse such a line: refuse it here, where the sender can act on it.
  const problem = extraProblem(checked)
  if (problem !== null) throw new TeamError('invalid-message', `${problem.replace(/^the/, 'The')}.`)
  return checked
}

/** Lines the consumer set aside for a reason the line alone does not show (duplicates). */
function readRejections(paths: TeamPaths, name: string): Map<string, string> {
  const reasons = new Map<string, string>()
  const text = readRegularTextSync(paths.rejected(name), {
    what: `The rejected log of "${name}"`,
    maxBytes: FILE_CAPS.log,
  })
  if (text === null) return reasons
  for (const line of text.split('\n')) {
    if (line.length === 0) continue
    try {
      const record = JSON.parse(line) as { segment?: unknown; offset?: unknown; reason?: unknown }
      if (typeof record.reason === 'string')
        reasons.set(`${String(record.segment)}:${String(record.offset)}`, record.reason)
    } catch {
      // A torn last record of a crashed commit: the commit is redone, so the line comes again.
    }
  }
  return reasons
}

interface MailboxLine {
  /** The JSON line and its newline. */
  readonly text: string
  /** Its size in UTF-8 bytes, newline included: the line cap and the append check use it. */
  readonly bytes: number
}

/** The line a message is written as: `messageToLine` (JSON.stringify) and a newline. */
function lineOf(message: MailMessage): MailboxLine {
  const text = `${messageToLine(message)}\n`
  return { text, bytes: Buffer.byteLength(text) }
}

/**
 * What a count of one inbox's live segment remembers for the next: how far it has judged the
 * segment, and where the messages it found start. The next count drops the messages the cursor
 * has passed and reads only what was appended since, so that counting a busy inbox costs its new
 * lines, not the whole backlog again (an inbox flooded with large lines was parsed again and
 * again, and the process's memory grew with it).
 */
export interface PendingTally {
  /** The segment it judged, and the cursor's offset in it at the last count. */
  segment: number
  cursor: number
  /** How far the segment was judged: just past its last complete line read. */
  judgedTo: number
  /** The offsets of the messages found from the cursor on. */
  messages: number[]
}

export function newPendingTally(): PendingTally {
  return { segment: -1, cursor: 0, judgedTo: 0, messages: [] }
}

async function countLive(
  tally: PendingTally,
  cursor: { segment: number; offset: number },
  limit: number,
  scan: (from: number) => ReturnType<typeof scanSegment>,
): Promise<number> {
  // Segments are only appended to (an archive starts a new one), so a tally holds until the
  // cursor moves to another segment, or back (the inbox was reset), or past what was judged.
  if (
    tally.segment !== cursor.segment ||
    cursor.offset < tally.cursor ||
    cursor.offset > tally.judgedTo
  ) {
    tally.segment = cursor.segment
    tally.judgedTo = cursor.offset
    tally.messages = []
  }
  tally.cursor = cursor.offset
  tally.messages = tally.messages.filter((offset) => offset >= cursor.offset)
  while (tally.messages.length < limit) {
    const result = await scan(tally.judgedTo)
    for (const line of result.lines)
      if (line.kind === 'message') tally.messages.push(line.position.offset)
    if (result.next <= tally.judgedTo) break
    tally.judgedTo = result.next
    if (result.atEnd) break
  }
  return Math.min(tally.messages.length, limit)
}
