import { closeSync, fstatSync, fsync, fsyncSync, mkdirSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  TRANSCRIPT_FORMAT_VERSION,
  type NewTranscriptRecord,
  type TranscriptRecord,
} from '../../shared/transcript'
import type { Clock } from '../system/clock'
import { FILE_CAPS, openRegularForAppendSync, readRegularTextSync } from '../fs/safe-open'
import type { Position } from '../mailbox/position'
import { lastCompaction } from './conversation'
import { cutTornTail, linesBackward, parseLine } from './transcript-lines'
import {
  addRecord,
  emptyTotals,
  readSavedTotals,
  saveTotals,
  totalsPathOf,
  type TranscriptTotals,
} from './transcript-totals'

/** The records opening keeps at least: the page the window asks for first (TRANSCRIPT_FIRST_PAGE). */
const TAIL_RECORDS = 100

/**
 * An agent's transcript: `.team/transcripts/<name>.jsonl`, one versioned record a line,
 * appended as things happen by the agent alone. Appends are written at once (they survive a
 * crash of the process); `flush` makes them durable on disk, which is done before an inbox
 * cursor moves past the messages a record holds.
 *
 * Opening reads the file from its end: the last page, back to the last model turn, plus the
 * totals kept beside it (`<name>.totals.json`); older records are read when asked for (the
 * model's conversation back to its last compaction, a page the person scrolls to).
 */
export class TranscriptStore {
  /** The records from byte `loadedFrom` to the end: always a suffix of the file. */
  private records: TranscriptRecord[]
  private loadedFrom: number
  private size: number
  private readonly totals: TranscriptTotals
  private conversationLoaded = false
  /** Records were counted since the totals file was last written. */
  private totalsStale: boolean
  private fd: number
  private pendingFlush: Promise<void> | null = null
  /** Lines that could not be read (a hand edit); kept in the file, reported, skipped. */
  readonly problems: string[]

  private constructor(
    readonly path: string,
    private readonly clock: Clock,
    loaded: Loaded,
  ) {
    this.records = loaded.records
    this.loadedFrom = loaded.loadedFrom
    this.size = loaded.size
    this.totals = loaded.totals
    this.problems = loaded.problems
    this.fd = loaded.fd
    this.totalsStale = loaded.totalsStale
  }

  static open(path: string, clock: Clock): TranscriptStore {
    mkdirSync(dirname(path), { recursive: true })
    // Read from the descriptor it appends to: a FIFO or folder in its place is refused here.
    const fd = openRegularForAppendSync(path, { what: 'The transcript', readable: true })
    try {
      const store = new TranscriptStore(path, clock, loadTail(path, fd))
      if (store.totalsStale) store.saveTotals()
      return store
    } catch (error) {
      closeSync(fd)
      throw error
    }
  }

  /** Every record: reads whatever was not read yet (the CLI, tests, a compaction's summary). */
  get all(): readonly TranscriptRecord[] {
    this.loadBack(() => false)
    return this.records
  }

  /**
   * The records after `seq`, reading back only as far as that (a Claude Code teammate's
   * hand-over needs what its session has not seen, not the whole transcript).
   */
  since(seq: number): readonly TranscriptRecord[] {
    if ((this.records[0]?.seq ?? Number.POSITIVE_INFINITY) > seq + 1)
      this.loadBack((record) => record.seq <= seq + 1)
    const first = this.records.findIndex((record) => record.seq > seq)
    return first < 0 ? [] : this.records.slice(first)
  }

  /**
   * A suffix of the transcript that holds at least its last model turn, what follows it and
   * what came while it was asked for (`seen_through_seq`): enough to tell whether the agent
   * has work left, without reading further back.
   */
  get recent(): readonly TranscriptRecord[] {
    return this.records
  }

  /**
   * A suffix of the transcript that holds everything the model's next request is built from:
   * the records back to the range the last compaction summarized, or all of them.
   */
  conversation(): readonly TranscriptRecord[] {
    if (!this.conversationLoaded) {
      let compaction = lastCompaction(this.records)
      const covered = (record: TranscriptRecord): boolean =>
        compaction !== undefined && record.seq <= compaction.through_seq
      const first = this.records[0]
      if (first === undefined || !covered(first))
        this.loadBack((record) => {
          if (compaction === undefined && record.kind === 'compaction') compaction = record
          return covered(record)
        })
      this.conversationLoaded = true
    }
    return this.records
  }

  /** The records from seq `fromSeq` on (at most `limit`), and the last seq as the total. */
  page(fromSeq: number, limit?: number): { records: TranscriptRecord[]; total: number } {
    if (limit === 0) return { records: [], total: this.lastSeq }
    const first = this.records[0]
    if (first === undefined || first.seq > fromSeq) this.loadBack((record) => record.seq <= fromSeq)
    const start = this.records.findIndex((record) => record.seq >= fromSeq)
    const records = start === -1 ? [] : this.records.slice(start, start + (limit ?? Infinity))
    return { records, total: this.lastSeq }
  }

  get length(): number {
    return this.lastSeq
  }

  /** Model calls made and their tokens, over the whole transcript. */
  get usageTotals(): Pick<TranscriptTotals, 'rounds' | 'usage' | 'byModel'> {
    const { rounds, usage, byModel } = this.totals
    return { rounds, usage, byModel }
  }

  append(record: NewTranscriptRecord): TranscriptRecord {
    const stamped = {
      v: TRANSCRIPT_FORMAT_VERSION,
      seq: this.lastSeq + 1,
      at: this.clock.now() / 1000,
      ...record,
    } as TranscriptRecord
    const line = Buffer.from(`${JSON.stringify(stamped)}\n`)
    let written = 0
    while (written < line.length)
      written += writeSync(this.fd, line, written, line.length - written)
    this.size += line.length
    this.records.push(stamped)
    addRecord(this.totals, stamped)
    this.totalsStale = true
    return stamped
  }

  /** Makes every appended record durable. */
  flush(): void {
    fsyncSync(this.fd)
  }

  /**
   * Makes every record appended so far durable, off the main thread: an fsync takes milliseconds
   * of disk time, during which every other agent would wait. Appends may go on meanwhile.
   */
  flushAsync(): Promise<void> {
    const fd = this.fd
    if (fd === -1) return Promise.reject(new Error(`The transcript ${this.path} is closed.`))
    const flushed = new Promise<void>((resolve, reject) =>
      fsync(fd, (error) => (error ? reject(error) : resolve())),
    )
    // close() waits for this: a descriptor closed (and reused) under a pending fsync would let
    // it succeed on another file, and a cursor then move past records not on disk.
    const settled: Promise<void> = flushed
      .catch(() => undefined)
      .then(() => {
        if (this.pendingFlush === settled) this.pendingFlush = null
      })
    this.pendingFlush = settled
    return flushed
  }

  /** The furthest inbox position a record holds: what this agent has durably consumed. */
  lastInboxEnd(): Position | undefined {
    return this.totals.inboxEnd ?? undefined
  }

  /** Ids of the messages most recently delivered to this agent, newest last. */
  recentMessageIds(limit: number): string[] {
    return this.totals.recentIds.slice(-limit)
  }

  /**
   * Writes the totals file, so that the next open need not count this transcript again. Done
   * at the end of an activation and on close; a failure only costs that next open a longer read.
   */
  saveTotals(): void {
    if (!this.totalsStale) return
    try {
      saveTotals(totalsPathOf(this.path), this.totals, {
        bytes: this.size,
        lastSeq: this.lastSeq,
      })
      this.totalsStale = false
    } catch {
      // A read-only or full disk: the transcript itself is what matters, and it is written.
    }
  }

  close(): void {
    if (this.fd === -1) return
    this.saveTotals()
    const fd = this.fd
    this.fd = -1
    // A pending fsync keeps the descriptor until it is done.
    if (this.pendingFlush === null) closeSync(fd)
    else void this.pendingFlush.then(() => closeSync(fd))
  }

  private get lastSeq(): number {
    return this.records[this.records.length - 1]?.seq ?? 0
  }

  /** Reads older records into memory, newest first, until `enough` says so or the start. */
  private loadBack(enough: (record: TranscriptRecord) => boolean): void {
    if (this.loadedFrom === 0 || this.fd === -1) return
    const older: TranscriptRecord[] = []
    for (const line of linesBackward(this.fd, this.loadedFrom)) {
      this.loadedFrom = line.start
      const parsed = parseLine(line.text.toString('utf8'))
      if (parsed.problem !== undefined) {
        if (line.text.length > 0) this.problems.push(`byte ${line.start}: ${parsed.problem}`)
        continue
      }
      older.push(parsed.record)
      if (enough(parsed.record)) break
    }
    this.records = [...older.reverse(), ...this.records]
  }
}

interface Loaded {
  records: TranscriptRecord[]
  loadedFrom: number
  size: number
  totals: TranscriptTotals
  problems: string[]
  fd: number
  totalsStale: boolean
}

/**
 * Reads a transcript from its end: back past its last model turn (and the records that came
 * while it was asked for) and at least TAIL_RECORDS
 * records, and back to where the saved totals end (all of it when there are none), counting
 * what they do not cover.
 */
function loadTail(path: string, fd: number): Loaded {
  const size = cutTornTail(fd, fstatSync(fd).size)
  const saved = readSavedTotals(totalsPathOf(path), fd, size)
  const countedTo = saved?.bytes ?? 0
  const lines: { start: number; record: TranscriptRecord }[] = []
  const problems: string[] = []
  let loadedFrom = size
  // Back to the last model turn, and to the last record its request held: what came in while
  // it was asked for is part of what the agent has left to do.
  let reach = Number.NEGATIVE_INFINITY
  let lowest = Number.POSITIVE_INFINITY
  for (const line of linesBackward(fd, size)) {
    if (loadedFrom <= countedTo && lines.length >= TAIL_RECORDS && lowest <= reach) break
    loadedFrom = line.start
    const parsed = parseLine(line.text.toString('utf8'))
    if (parsed.problem !== undefined) {
      if (line.text.length > 0) problems.push(`byte ${line.start}: ${parsed.problem}`)
      continue
    }
    lines.push({ start: line.start, record: parsed.record })
    lowest = parsed.record.seq
    // An earlier turn was in the last one's request: nothing before it need be read.
    if (parsed.record.kind === 'assistant')
      reach =
        reach === Number.NEGATIVE_INFINITY
          ? (parsed.record.seen_through_seq ?? parsed.record.seq)
          : Math.max(reach, parsed.record.seq)
  }
  lines.reverse()
  problems.reverse()
  const totals = saved?.totals ?? emptyTotals()
  for (const line of lines) if (line.start >= countedTo) addRecord(totals, line.record)
  return {
    records: lines.map((line) => line.record),
    loadedFrom,
    size,
    totals,
    problems,
    fd,
    totalsStale: countedTo !== size,
  }
}

/** Reads a transcript without opening it for writing (for the CLI and other readers). */
export function readTranscript(path: string): { records: TranscriptRecord[]; problems: string[] } {
  const text = readRegularTextSync(path, { what: 'The transcript', maxBytes: FILE_CAPS.log })
  if (text === null) return { records: [], problems: [] }
  return parseTranscript(text.slice(0, text.lastIndexOf('\n') + 1))
}

function parseTranscript(text: string): { records: TranscriptRecord[]; problems: string[] } {
  const records: TranscriptRecord[] = []
  const problems: string[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim().length === 0) return
    const parsed = parseLine(line)
    if (parsed.problem === undefined) records.push(parsed.record)
    else problems.push(`line ${index + 1}: ${parsed.problem}`)
  })
  return { records, problems }
}
