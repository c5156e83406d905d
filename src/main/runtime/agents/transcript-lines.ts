import { ftruncateSync, readSync } from 'node:fs'
import { transcriptRecordSchema, type TranscriptRecord } from '../../../shared/transcript'

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
