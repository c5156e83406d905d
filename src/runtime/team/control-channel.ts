import { closeSync, fstatSync, readSync } from 'node:fs'
import { MAX_CONTROL_LINE_BYTES, parseControlLine, type ControlCommand } from '../../shared/control'
import { appendOnceSync } from '../fs/durable'
import { openRegularForReadSync } from '../fs/safe-open'

/** A control line refused, with where it was and why. */
export interface ControlRejection {
  readonly offset: number
  readonly reason: string
}

const CHUNK_BYTES = 256 * 1024

/**
 * The reading side of `.team/control.jsonl` for one run: reads complete lines from where it left
 * off (at most a chunk a call, never the whole file) and judges each. Refused lines are appended
 * to `rejectedPath` with their reason, so that a person can see why a command did nothing.
 */
export class ControlChannel {
  /** Set while skipping the rest of a line over the size limit, to its newline. */
  private skippingFrom: number | null = null
  /** Set once the file was refused as not a regular file, so that it is reported once. */
  private refusedOnce = false

  constructor(
    private readonly path: string,
    private readonly rejectedPath: string,
    /** Where reading starts: commands from before this run are not replayed. */
    private offset: number,
  ) {}

  /** Reads what was appended since the last call; never throws for what the file holds. */
  read(): { commands: ControlCommand[]; rejections: ControlRejection[] } {
    const commands: ControlCommand[] = []
    const rejections: ControlRejection[] = []
    let fd: number | null
    try {
      fd = openRegularForReadSync(this.path, { what: 'The control file' })
    } catch (error) {
      // Not a regular file (a FIFO would block the event loop, a symlink leads out of .team/):
      // refused, said once until it is a file again.
      if (!this.refusedOnce) rejections.push({ offset: 0, reason: errorText(error) })
      this.refusedOnce = true
      return { commands, rejections }
    }
    this.refusedOnce = false
    if (fd === null) return { commands, rejections }
    try {
      const size = fstatSync(fd).size
      // The file was replaced by a shorter one: read the new one from its start.
      if (size < this.offset) this.offset = 0
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
      while (this.offset < size) {
        const bytesRead = readSync(
          fd,
          chunk,
          0,
          Math.min(CHUNK_BYTES, size - this.offset),
          this.offset,
        )
        if (bytesRead === 0) break
        const consumed = this.judgeChunk(chunk.subarray(0, bytesRead), commands, rejections)
        if (consumed === 0) break // a torn last line: wait for the rest
        this.offset += consumed
      }
    } finally {
      closeSync(fd)
    }
    if (rejections.length > 0) this.keep(rejections)
    return { commands, rejections }
  }

  /** Judges the complete lines of `bytes` (read at `offset`); returns how many bytes it used. */
  private judgeChunk(
    bytes: Buffer,
    commands: ControlCommand[],
    rejections: ControlRejection[],
  ): number {
    let start = 0
    for (;;) {
      const newline = bytes.indexOf(10, start)
      if (newline === -1) break
      const lineOffset = this.offset + start
      if (this.skippingFrom !== null) {
        rejections.push({
          offset: this.skippingFrom,
          reason: `line over the limit of ${MAX_CONTROL_LINE_BYTES} bytes`,
        })
        this.skippingFrom = null
      } else {
        const text = bytes.toString('utf8', start, newline).replace(/\r$/, '')
        if (text.trim().length > 0) {
          const verdict = parseControlLine(text)
          if (verdict.ok) commands.push(verdict.command)
          else rejections.push({ offset: lineOffset, reason: verdict.reason })
        }
      }
      start = newline + 1
    }
    // The rest has no newline yet. A rest this long can never become a valid line: skip it.
    if (
      bytes.length - start > MAX_CONTROL_LINE_BYTES ||
      (this.skippingFrom !== null && start === 0)
    ) {
      this.skippingFrom ??= this.offset + start
      return bytes.length
    }
    return start
  }

  private keep(rejections: readonly ControlRejection[]): void {
    const at = Date.now() / 1000
    const lines = rejections.map((rejection) =>
      JSON.stringify({ v: 1, offset: rejection.offset, reason: rejection.reason, timestamp: at }),
    )
    try {
      appendOnceSync(this.rejectedPath, `${lines.join('\n')}\n`)
    } catch {
      // The log is for people; the events already report every refusal.
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
