import { open, type FileHandle } from 'node:fs/promises'
import { MAX_LINE_BYTES, parseMessageLine, type MailMessage } from '../../../shared/messages'
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
 * Blank lines and a CR before the newline are tolerated; a line without its newline is left for
 * later; a line over MAX_LINE_BYTES is judged without being held in memory whole.
 */
export async function scanSegment(
  path: string,
  inbox: string,
  segment: number,
  from: number,
  maxBytes = 8 * CHUNK_BYTES,
): Promise<ScanResult> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { lines: [], next: from, pendingBytes: 0, atEnd: true }
    throw error
  }
  try {
    const size = (await handle.stat()).size
    const lines: ScannedLine[] = []
    let next = from
    let buffer = Buffer.alloc(0)
    let bufferStart = from
    let readAt = from
    while (readAt < size && next - from < maxBytes) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, size - readAt))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, readAt)
      if (bytesRead === 0) break
      readAt += bytesRead
      buffer =
        buffer.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([buffer, chunk.subarray(0, bytesRead)])
      let lineStart = 0
      for (;;) {
        const newline = buffer.indexOf(10, lineStart)
        if (newline === -1) break
        const line = judge(
          buffer.subarray(lineStart, newline),
          inbox,
          { segment, offset: bufferStart + lineStart },
          bufferStart + newline + 1,
        )
        if (line !== null) lines.push(line)
        lineStart = newline + 1
      }
      next = bufferStart + lineStart
      buffer = buffer.subarray(lineStart)
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

/** A complete line judged; null for a blank one. */
function judge(bytes: Buffer, inbox: string, position: Position, end: number): ScannedLine | null {
  const body =
    bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.subarray(0, bytes.length - 1) : bytes
  if (body.length > MAX_LINE_BYTES) {
    return {
      kind: 'invalid',
      position,
      end,
      reason: `line of ${body.length} bytes is over the ${MAX_LINE_BYTES}-byte limit (the first ${PREVIEW_BYTES} bytes are kept here; the line stays in the inbox file)`,
      rawBase64: body.subarray(0, PREVIEW_BYTES).toString('base64'),
    }
  }
  let text: string
  try {
    text = decoder.decode(body)
  } catch {
    return {
      kind: 'invalid',
      position,
      end,
      reason: 'not valid UTF-8',
      rawBase64: body.toString('base64'),
    }
  }
  if (text.trim().length === 0) return null
  const verdict = parseMessageLine(text, inbox, positionId(position))
  if (verdict.ok) return { kind: 'message', position, end, message: verdict.message }
  return {
    kind: 'invalid',
    position,
    end,
    reason: verdict.reason,
    rawBase64: body.toString('base64'),
  }
}
