import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs'

/** More than any instruction file's share of a window; the rest of a huge file is not read. */
export const INSTRUCTION_READ_CAP_BYTES = 4 * 1024 * 1024

export interface CachedText {
  readonly text: string
  /** Its size on disk (may exceed what was read: `text` stops at the read cap). */
  readonly bytes: number
}

interface Entry extends CachedText {
  readonly mtimeMs: number
  readonly ino: number
  readonly dev: number
}

/**
 * Instruction files are read before every model call, so that an edit reaches the next call
 * without a restart. A stat per file is cheap; the read happens only when the file's time, size
 * or inode changed (an editor's save-by-rename changes the inode).
 */
export class TextFileCache {
  private readonly entries = new Map<string, Entry>()

  /**
   * The text of the regular file at `path` (already resolved, no symlink left), or null when it
   * does not exist or is not a regular file (a FIFO would block; a folder is no instructions).
   */
  read(path: string): CachedText | null {
    let stats
    try {
      stats = statSync(path)
    } catch {
      this.entries.delete(path)
      return null
    }
    if (!stats.isFile()) return null
    const cached = this.entries.get(path)
    if (
      cached &&
      cached.mtimeMs === stats.mtimeMs &&
      cached.bytes === stats.size &&
      cached.ino === stats.ino &&
      cached.dev === stats.dev
    )
      return cached
    const entry = readEntry(path)
    if (entry === null) this.entries.delete(path)
    else this.entries.set(path, entry)
    return entry
  }
}

function readEntry(path: string): Entry | null {
  let fd: number
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat opens at once and is refused below.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    return null
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return null
    const length = Math.min(stats.size, INSTRUCTION_READ_CAP_BYTES)
    const buffer = Buffer.alloc(length)
    let read = 0
    while (read < length) {
      const count = readSync(fd, buffer, read, length - read, read)
      if (count === 0) break
      read += count
    }
    return {
      text: buffer.subarray(0, read).toString('utf8'),
      bytes: stats.size,
      mtimeMs: stats.mtimeMs,
      ino: stats.ino,
      dev: stats.dev,
    }
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}
