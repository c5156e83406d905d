import { ftruncateSync, readSync } from 'node:fs'
import { transcriptRecordSchema, type TranscriptRecord } from '../../shared/transcript'
import { FILE_CAPS, readRegularChunksSync } from '../fs/safe-open'

/** How much of a transcript one read takes when reading it backwards. */
const CHUNK_BYTES = 64 * 1024
const NEWLINE = 0x0a

/** A complete line of a transcript and the byte offset where it starts. */
export interface TranscriptLine {
  readonly start: number
  readonly text: Buffer
}

/** A line read as a record, or why it could not be. */
export type ParsedLine =
  | { readonly record: TranscriptRecord; readonly problem?: undefined }
  | { readonly record?: undefined; readonly problem: string }

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length)
  let read = 0
  while (read < length) {
    const count = readSync(fd, buffer, read, length - read, position + read)
    if (count === 0) break
    read += count
  }
  return buffer.subarray(0, read)
}

/**
 * The complete lines that end at or before `end` (a line boundary), newest first: a page at the
 * end of a long transcript is read without reading what comes before it.
 */
export function* linesBackward(fd: number, end: number): Generator<TranscriptLine> {
  let position = end
  // Bytes [position, position + pending.length): whole lines, the last ending in a newline.
  let pending: Buffer = Buffer.alloc(0)
  for (;;) {
    let stop = pending.length
    while (stop > 1) {
      const newline = pending.lastIndexOf(NEWLINE, stop - 2)
      if (newline === -1) break
      yield { start: position + newline + 1, text: pending.subarray(newline + 1, stop - 1) }
      stop = newline + 1
    }
    pending = pending.subarray(0, stop)
    if (position === 0) {
      if (stop > 0) yield { start: 0, text: pending.subarray(0, stop - 1) }
      return
    }
    const size = Math.min(CHUNK_BYTES, position)
    position -= size
    pending = Buffer.concat([readAt(fd, position, size), pending])
  }
}

/**
 * Cuts off a record torn by a crash in the middle of its write (no newline yet): it never
 * counted. Returns the file's length after the cut.
 */
export function cutTornTail(fd: number, size: number): number {
  if (size === 0 || readAt(fd, size - 1, 1)[0] === NEWLINE) return size
  let end = size
  while (end > 0) {
    const from = Math.max(0, end - CHUNK_BYTES)
    const newline = readAt(fd, from, end - from).lastIndexOf(NEWLINE)
    if (newline !== -1) {
      ftruncateSync(fd, from + newline + 1)
      return from + newline + 1
    }
    end = from
  }
  ftruncateSync(fd, 0)
  return 0
}

/** Whether `offset` is a line boundary of the file (its start, or just after a newline). */
export function isLineBoundary(fd: number, offset: number): boolean {
  return offset === 0 || readAt(fd, offset - 1, 1)[0] === NEWLINE
}

/** One line of a transcript, checked against the record schema (a hand edit may break it). */
export function parseLine(text: string): ParsedLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { problem: 'not valid JSON' }
  }
  const parsed = transcriptRecordSchema.safeParse(value)
  if (parsed.success) return { record: parsed.data }
  return { problem: parsed.error.issues[0]?.message ?? 'not a transcript record' }
}

/**
 * A transcript's records from its start, read a chunk at a time: what `readTranscript` returns,
 * record by record, without holding the file or its records whole. A line that is not a record
 * comes as its problem (`line 7: not valid JSON`), numbered as `readTranscript` numbers it; a
 * torn last line (no newline yet) is left out, as there.
 */
export function* readTranscriptRecords(path: string): Generator<ParsedLine> {
  const chunks = readRegularChunksSync(path, { what: 'The transcript', maxBytes: FILE_CAPS.log })
  if (chunks === null) return
  // The start of the line being read, when it spans chunks (a long tool result).
  const head: Buffer[] = []
  let number = 0
  for (const chunk of chunks) {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start)
      if (newline === -1) break
      const line =
        head.length === 0
          ? chunk.subarray(start, newline)
          : Buffer.concat([...head.splice(0), chunk.subarray(start, newline)])
      number += 1
      start = newline + 1
      // A newline byte is never part of a longer UTF-8 sequence: each line decodes as it would
      // in the whole text.
      const text = line.toString('utf8')
      if (text.trim().length === 0) continue
      const parsed = parseLine(text)
      yield parsed.problem === undefined ? parsed : { problem: `line ${number}: ${parsed.problem}` }
    }
    if (start < chunk.length) head.push(chunk.subarray(start))
  }
}
