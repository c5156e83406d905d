import { closeSync, fstatSync, readSync } from 'node:fs'
import type { TranscriptRecord } from '../../shared/transcript'
import { linesBackward, parseLine } from '../agents/transcript-lines'
import { FILE_CAPS, openRegularForReadSync } from '../fs/safe-open'
import { ProblemList } from './problem-list'

/** What a read of a transcript gave: its records (oldest first) from some point to its end. */
export interface TranscriptSlice {
  readonly records: TranscriptRecord[]
  /** Lines that are not records, each with where it is ("byte 812: not valid JSON"). */
  readonly problems: string[]
  /** Whether the slice starts at the file's start (nothing older was left unread). */
  readonly whole: boolean
  /** The time of the file's first record, when it could be read. */
  readonly firstAt: number | null
}

/**
 * Where the reading may stop, going back from the end: once it holds at least `records`
 * records, or has passed `since`. It stops only at a record after which the agent is between
 * activations (a status record or a model turn that called no tool), so the slice never starts
 * inside an activation (a tool result without its call, a wake without its start).
 */
export interface TailLimit {
  readonly records?: number
  readonly since?: number
}

const CHUNK_BYTES = 64 * 1024
const NEWLINE = 0x0a

/**
 * Reads `path` from its end, backwards, as far as `limit` needs (all of it without one). The
 * file is opened as a regular file only (a FIFO, a symlink or a folder is refused with a
 * TeamError naming it); a torn last line (no newline yet) is left out.
 */
export function readTranscriptTail(path: string, limit: TailLimit = {}): TranscriptSlice {
  const fd = openRegularForReadSync(path, { what: 'The transcript' })
  if (fd === null) return { records: [], problems: [], whole: true, firstAt: null }
  try {
    const size = fstatSync(fd).size
    const end = lastLineEnd(fd, size)
    const newestFirst: TranscriptRecord[] = []
    const problems = new ProblemList()
    let whole = true
    let bytes = 0
    for (const line of linesBackward(fd, end)) {
      bytes += line.text.length + 1
      if (bytes > FILE_CAPS.log) {
        problems.push(`over ${FILE_CAPS.log} bytes: only its last part is read`)
        whole = false
        break
      }
      if (line.text.length === 0) continue
      const parsed = parseLine(line.text.toString('utf8'))
      if (parsed.problem !== undefined) {
        problems.push(`byte ${line.start}: ${parsed.problem}`)
        continue
      }
      const record = parsed.record
      newestFirst.push(record)
      if (enough(newestFirst.length, record, limit) && isQuiet(record)) {
        whole = line.start === 0
        break
      }
    }
    const records = newestFirst.reverse()
    return {
      records,
      problems: problems.list('reversed'),
      whole,
      firstAt: firstAt(fd, end, whole, records),
    }
  } finally {
    closeSync(fd)
  }
}

function enough(count: number, record: TranscriptRecord, limit: TailLimit): boolean {
  if (limit.records !== undefined && count >= limit.records) return true
  return limit.since !== undefined && record.at < limit.since
}

/** After this record the agent was between activations. */
export function isQuiet(record: TranscriptRecord): boolean {
  return (
    record.kind === 'status' || (record.kind === 'assistant' && record.stop_reason !== 'tool_use')
  )
}

/** The end of the last complete line (a line being written has no newline yet). */
function lastLineEnd(fd: number, size: number): number {
  let end = size
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
  while (end > 0) {
    const from = Math.max(0, end - CHUNK_BYTES)
    const read = readSync(fd, buffer, 0, end - from, from)
    const newline = buffer.subarray(0, read).lastIndexOf(NEWLINE)
    if (newline !== -1) return from + newline + 1
    end = from
  }
  return 0
}

/** The first record's time: the slice's own when it is whole, else the file's first line. */
function firstAt(
  fd: number,
  end: number,
  whole: boolean,
  records: readonly TranscriptRecord[],
): number | null {
  if (whole) return records[0]?.at ?? null
  const buffer = Buffer.allocUnsafe(Math.min(end, CHUNK_BYTES))
  const read = readSync(fd, buffer, 0, buffer.length, 0)
  const newline = buffer.subarray(0, read).indexOf(NEWLINE)
  if (newline === -1) return null
  const parsed = parseLine(buffer.toString('utf8', 0, newline))
  return parsed.record?.at ?? null
}
