import { isUtf8 } from 'node:buffer'
import type { FileHandle } from 'node:fs/promises'
import { MAX_LINE_BYTES, parseMessageLine, type MailMessage } from '../../shared/messages'
import { openRegularFile } from '../fs/safe-open'
import { positionId, type Position } from './position'

/** One complete line of an inbox segment, judged. */
export type ScannedLine =
  | {
      readonly kind: 'message'
      readonly position: Position
      readonly end: number
      readonly message: MailMessage
    }
  | {
      readonly kind: 'invalid'
      readonly position: Position
      readonly end: number
      readonly reason: string
      /** The raw line, or its first bytes for an oversize one, base64 so invalid UTF-8 survives. */
      readonly rawBase64: string
    }

export interface ScanResult {
  readonly lines: ScannedLine[]
  /** Where the next scan starts: just past the last complete line (or blank run) read. */
  readonly next: number
  /** Bytes after `next` that end without a newline yet: a torn line waiting for the rest. */
  readonly pendingBytes: number
  /** Whether the scan read to the end of the file (false when it stopped at `maxBytes`). */
  readonly atEnd: boolean
}

const CHUNK_BYTES = 1024 * 1024
const PREVIEW_BYTES = 4096
const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads complete lines of segment `segment` of `inbox` from byte `from`, up to about `maxBytes`.
 * A line without its newline is left for later; a line over MAX_LINE_BYTES is judged without
 * being held in memory whole.
 */
export async function scanSegment(
  path: string,
  inbox: string,
  segment: number,
  from: number,
  maxBytes = 8 * CHUNK_BYTES,
): Promise<ScanResult> {
  // A FIFO, folder or symlink in an inbox's place is refused with its name, never waited on.
  const handle = await openRegularFile(path, {
    what: `The inbox "${inbox}" (segment ${segment})`,
    remedy: 'Move it aside; senders then start a new inbox file.',
  })
  if (handle === null) return { lines: [], next: from, pendingBytes: 0, atEnd: true }
  try {
    const size = (await handle.stat()).size
    const lines: ScannedLine[] = []
    let next = from
    let buffer = Buffer.alloc(0)
    let bufferStart = from
    let readAt = from
    while (readAt < size && next - from < maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - readAt))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, readAt)
      if (bytesRead === 0) break
      readAt += bytesRead
      buffer =
        buffer.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([buffer, chunk.subarray(0, bytesRead)])
      const complete = buffer.lastIndexOf(10) + 1
      judgeLines(buffer, complete, { inbox, segment, base: bufferStart }, lines)
      next = bufferStart + complete
      buffer = buffer.subarray(complete)
      bufferStart = next
      if (buffer.length > MAX_LINE_BYTES + 1) {
        // An oversize line: find its end without holding it, then reject it with a preview.
        const end = await findNewline(handle, bufferStart + buffer.length, size)
        if (end === -1) return { lines, next, pendingBytes: size - next, atEnd: true }
        lines.push({
          kind: 'invalid',
          position: { segment, offset: bufferStart },
          end: end + 1,
          reason: `line of ${end - bufferStart} bytes is over the ${MAX_LINE_BYTES}-byte limit (the first ${PREVIEW_BYTES} bytes are kept here; the line stays in the inbox file)`,
          rawBase64: buffer.subarray(0, PREVIEW_BYTES).toString('base64'),
        })
        next = end + 1
        bufferStart = next
        readAt = next
        buffer = Buffer.alloc(0)
      }
    }
    return { lines, next, pendingBytes: readAt >= size ? size - next : 0, atEnd: readAt >= size }
  } finally {
    await handle.close()
  }
}

async function findNewline(handle: FileHandle, from: number, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK_BYTES)
  for (let at = from; at < size;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, at)
    if (bytesRead === 0) break
    const index = chunk.subarray(0, bytesRead).indexOf(10)
    if (index !== -1) return at + index
    at += bytesRead
  }
  return -1
}

interface Place {
  readonly inbox: string
  readonly segment: number
  /** The segment offset of the buffer's first byte. */
  readonly base: number
}

/**
 * Judges the complete lines in `buffer`'s first `length` bytes, in order. Valid UTF-8 (the usual
 * case) is checked and decoded once for them all, and each line is a slice of that text; a
 * decode per line was the scan's largest cost. Otherwise each line is decoded on its own, so
 * that only the bad ones are rejected.
 */
function judgeLines(buffer: Buffer, length: number, place: Place, into: ScannedLine[]): void {
  if (length === 0) return
  const text = isUtf8(buffer.subarray(0, length)) ? buffer.toString('utf8', 0, length) : null
  let start = 0
  let textStart = 0
  while (start < length) {
    const newline = buffer.indexOf(10, start)
    // A 0x0A byte is always a newline in valid UTF-8, so the text has its newlines where the
    // bytes do.
    const textNewline = text === null ? -1 : text.indexOf('\n', textStart)
    const line = judge(buffer, start, newline, text?.slice(textStart, textNewline) ?? null, place)
    if (line !== null) into.push(line)
    start = newline + 1
    textStart = textNewline + 1
  }
}

/**
 * The line of bytes `start` to `newline` judged, from `text` when it is already decoded; null
 * for a blank one. Blank lines and a CR before the newline are tolerated.
 */
function judge(
  buffer: Buffer,
  start: number,
  newline: number,
  text: string | null,
  place: Place,
): ScannedLine | null {
  const carriageReturn = newline > start && buffer[newline - 1] === 13
  const stop = carriageReturn ? newline - 1 : newline
  const position = { segment: place.segment, offset: place.base + start }
  const end = place.base + newline + 1
  if (stop - start > MAX_LINE_BYTES) {
    return {
      kind: 'invalid',
      position,
      end,
      reason: `line of ${stop - start} bytes is over the ${MAX_LINE_BYTES}-byte limit (the first ${PREVIEW_BYTES} bytes are kept here; the line stays in the inbox file)`,
      rawBase64: buffer.toString('base64', start, start + PREVIEW_BYTES),
    }
  }
  const body = text === null ? decode(buffer.subarray(start, stop)) : bodyOf(text, carriageReturn)
  if (body === null) {
    return {
      kind: 'invalid',
      position,
      end,
      reason: 'not valid UTF-8',
      rawBase64: buffer.toString('base64', start, stop),
    }
  }
  // A line that starts with "{" is not blank; only the others pay for the trim.
  if (body.charCodeAt(0) !== 123 && body.trim().length === 0) return null
  const verdict = parseMessageLine(body, place.inbox, positionId(position))
  if (verdict.ok) return { kind: 'message', position, end, message: verdict.message }
  return {
    kind: 'invalid',
    position,
    end,
    reason: verdict.reason,
    rawBase64: buffer.toString('base64', start, stop),
  }
}

/** The line's text without its CR, and without a BOM, as TextDecoder would have given it. */
function bodyOf(text: string, carriageReturn: boolean): string {
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const to = carriageReturn ? text.length - 1 : text.length
  return from === 0 && to === text.length ? text : text.slice(from, to)
}

/** The bytes decoded as UTF-8, or null when they are not valid UTF-8. */
function decode(bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes)
  } catch {
    return null
  }
}
