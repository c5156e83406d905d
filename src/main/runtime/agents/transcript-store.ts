import { closeSync, fsync, fsyncSync, ftruncateSync, mkdirSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  TRANSCRIPT_FORMAT_VERSION,
  transcriptRecordSchema,
  type NewTranscriptRecord,
  type TranscriptRecord,
} from '../../../shared/transcript'
import type { Clock } from '../clock'
import {
  FILE_CAPS,
  openRegularForAppendSync,
  readDescriptorSync,
  readRegularTextSync,
} from '../fs/safe-open'
import type { Position } from '../mailbox/position'

/**
 * An agent's transcript: `.team/transcripts/<name>.jsonl`, one versioned record a line,
 * appended as things happen by the agent alone. Appends are written at once (they survive a
 * crash of the process); `flush` makes them durable on disk, which is done before an inbox
 * cursor moves past the messages a record holds.
 */
export class TranscriptStore {
  private readonly records: TranscriptRecord[]
  private fd: number
  private pendingFlush: Promise<void> | null = null
  /** Lines that could not be read (a hand edit); kept in the file, reported, skipped. */
  readonly problems: string[]

  private constructor(
    readonly path: string,
    private readonly clock: Clock,
    loaded: { records: TranscriptRecord[]; problems: string[]; fd: number },
  ) {
    this.records = loaded.records
    this.problems = loaded.problems
    this.fd = loaded.fd
  }

  static open(path: string, clock: Clock): TranscriptStore {
    mkdirSync(dirname(path), { recursive: true })
    const what = 'The transcript'
    // Read from the descriptor it appends to: a FIFO or folder in its place is refused here.
    const fd = openRegularForAppendSync(path, { what, readable: true })
    let text: string
    try {
      text = readDescriptorSync(fd, path, { what, maxBytes: FILE_CAPS.log }).toString('utf8')
    } catch (error) {
      closeSync(fd)
      throw error
    }
    const complete = text.lastIndexOf('\n') + 1
    if (complete < text.length) {
      // A record torn by a crash in the middle of its write: it never counted, so cut it off.
      text = text.slice(0, complete)
      ftruncateSync(fd, Buffer.byteLength(text))
    }
    const { records, problems } = parseTranscript(text)
    return new TranscriptStore(path, clock, { records, problems, fd })
  }

  get all(): readonly TranscriptRecord[] {
    return this.records
  }

  get length(): number {
    return this.records.length
  }

  append(record: NewTranscriptRecord): TranscriptRecord {
    const last = this.records[this.records.length - 1]
    const stamped = {
      v: TRANSCRIPT_FORMAT_VERSION,
      seq: (last?.seq ?? 0) + 1,
      at: this.clock.now() / 1000,
      ...record,
    } as TranscriptRecord
    const line = Buffer.from(`${JSON.stringify(stamped)}\n`)
    let written = 0
    while (written < line.length)
      written += writeSync(this.fd, line, written, line.length - written)
    this.records.push(stamped)
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
    for (let index = this.records.length - 1; index >= 0; index--) {
      const record = this.records[index]
      if (record?.kind === 'inbox') return record.end
      if (record?.kind === 'tool-result' && record.inbox_end) return record.inbox_end
    }
    return undefined
  }

  /** Ids of the messages most recently delivered to this agent, newest last. */
  recentMessageIds(limit: number): string[] {
    const ids: string[] = []
    for (let index = this.records.length - 1; index >= 0 && ids.length < limit; index--) {
      const record = this.records[index]
      if (record?.kind === 'inbox')
        ids.push(...record.messages.map((message) => message.id).reverse())
      else if (record?.kind === 'tool-result' && record.inbox_ids)
        ids.push(...[...record.inbox_ids].reverse())
    }
    return ids.reverse()
  }

  close(): void {
    if (this.fd === -1) return
    const fd = this.fd
    this.fd = -1
    // A pending fsync keeps the descriptor until it is done.
    if (this.pendingFlush === null) closeSync(fd)
    else void this.pendingFlush.then(() => closeSync(fd))
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
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`)
      return
    }
    const parsed = transcriptRecordSchema.safeParse(value)
    if (parsed.success) records.push(parsed.data)
    else
      problems.push(
        `line ${index + 1}: ${parsed.error.issues[0]?.message ?? 'not a transcript record'}`,
      )
  })
  return { records, problems }
}
