import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { dirname, basename, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { openRegularForAppendSync } from './safe-open'

/**
 * Replaces `path` atomically: a temp file beside it, fsync, rename over the target, fsync of the
 * folder. A reader sees the old content or the new one, never a mix, even after a SIGKILL or a
 * power loss at any moment. `durable: false` leaves out both fsyncs, for a cache that is checked
 * on every read: a crash may then lose the new content, but never mixes the two.
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; platform?: NodeJS.Platform; durable?: boolean } = {},
): void {
  const durable = options.durable ?? true
  const temp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
  // 'wx': a file or link already in that place is refused, never written through.
  const fd = openSync(temp, 'wx', options.mode ?? 0o644)
  try {
    writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data)
    if (durable) fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    unlinkSync(temp)
    throw error
  }
  closeSync(fd)
  renameSync(temp, path)
  if (durable) fsyncDirectorySync(dirname(path), options.platform)
}

/**
 * Makes a folder's entries (a rename, a new file) durable. Not on Windows: it cannot open a
 * folder as a file (EISDIR) nor fsync one (EPERM), and NTFS journals the rename itself.
 */
export function fsyncDirectorySync(
  path: string,
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === 'win32') return
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Appends `data` to `path` in one write(2) on an O_APPEND descriptor, so that concurrent appenders
 * (other processes included) never interleave inside it. A string is encoded by the write itself
 * (no Buffer per line); `bytes` is its UTF-8 size when the caller knows it already.
 */
export function appendOnceSync(
  path: string,
  data: Uint8Array | string,
  options: { durable?: boolean; bytes?: number } = {},
): void {
  const expected =
    typeof data === 'string' ? (options.bytes ?? Buffer.byteLength(data)) : data.length
  // Refuses a FIFO (an open for writing would wait for a reader forever) or a symlink.
  const fd = openRegularForAppendSync(path, { what: 'The file' })
  try {
    // The same call twice: writeSync's overloads take a string or a buffer, not the union.
    const written = typeof data === 'string' ? writeSync(fd, data) : writeSync(fd, data)
    if (written !== expected) {
      // Only a full disk or a quota does this to a regular file; the line is then torn and the
      // reader will reject it, so say so loudly rather than pretend it was sent.
      throw new Error(
        `short append to ${path}: ${written} of ${expected} bytes (is the disk full?)`,
      )
    }
    if (options.durable) fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset)
}
