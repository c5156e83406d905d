import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { TeamError, type ErrorCode } from '../../shared/errors'

/**
 * Size caps per kind of file the runtime reads whole. A file over its cap is refused rather than
 * read: a roster of 64 MiB is not a roster, and reading it would stall the one event loop.
 * Inbox segments and transcripts are streamed or appended to, and have larger caps.
 */
export const FILE_CAPS = {
  /** config.json, protocols.json, settings.json, recent.json, a lock file. */
  record: 4 * 1024 * 1024,
  /** mailbox/<name>/cursor.json and other one-line state. */
  cursor: 64 * 1024,
  /** A transcript or a rejected log, read whole when an agent starts. */
  log: 512 * 1024 * 1024,
} as const

/**
 * O_NOFOLLOW: a symlink in the last place is refused, not followed out of `.team/`.
 * O_NONBLOCK: opening a FIFO for reading does not wait for a writer (it would hang the event
 * loop), so that fstat can see what it is and refuse it. Windows has neither flag (0).
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

export interface SafeReadOptions {
  /** What the file is, for the message: "The roster", "The cursor of alice's inbox". */
  readonly what: string
  readonly maxBytes: number
  /** What the person should do about a refused file; default: move it aside. */
  readonly remedy?: string
  /** The error code of a refusal (default 'io'); the roster uses 'roster-invalid'. */
  readonly code?: ErrorCode
}

/** What a refused entry was found to be, in words. */
export function describeEntry(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSymbolicLink()) return 'a symbolic link'
  return 'not a regular file'
}

/**
 * Reads a whole regular file from the descriptor it opened: no stat-then-open race, no FIFO that
 * blocks, no folder read as EISDIR with a stack trace, no symlink followed, nothing over the cap.
 * Returns null when the file does not exist; refuses anything else with a TeamError that names
 * the file, says what it is, and what to do.
 */
export function readRegularFileSync(path: string, options: SafeReadOptions): Buffer | null {
  const fd = openRegularForReadSync(path, options)
  if (fd === null) return null
  try {
    const stats = fstatSync(fd)
    if (stats.size > options.maxBytes)
      throw refusal(
        path,
        options,
        `is ${stats.size} bytes, over the ${options.maxBytes}-byte limit for it`,
      )
    return readAll(fd, path, options)
  } finally {
    closeSync(fd)
  }
}

/**
 * Opens a regular file for reading with the refusals of `readRegularFileSync` except the size
 * cap (for a file read in chunks, like control.jsonl); null when it does not exist. The caller
 * closes the descriptor.
 */
export function openRegularForReadSync(
  path: string,
  options: Omit<SafeReadOptions, 'maxBytes'>,
): number | null {
  return openRegularSync(path, READ_FLAGS, options, 'absent-is-null')
}

/**
 * Opens `path` with `flags` and checks on the descriptor that it is a regular file, closing it
 * and refusing otherwise. A missing file is null for a reader, and thrown as it is for a writer
 * (a missing folder is the caller's to make: a reset removed it).
 */
function openRegularSync(
  path: string,
  flags: number,
  options: Omit<SafeReadOptions, 'maxBytes'>,
  absent: 'absent-is-null',
): number | null
function openRegularSync(
  path: string,
  flags: number,
  options: Omit<SafeReadOptions, 'maxBytes'>,
  absent: 'absent-throws',
): number
function openRegularSync(
  path: string,
  flags: number,
  options: Omit<SafeReadOptions, 'maxBytes'>,
  absent: 'absent-is-null' | 'absent-throws',
): number | null {
  let fd: number
  try {
    fd = openSync(path, flags, 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (absent === 'absent-is-null') return null
      throw error
    }
    throw refusal(path, { ...options, maxBytes: 0 }, failedOpen(path, error))
  }
  const stats = fstatSync(fd)
  if (stats.isFile()) return fd
  closeSync(fd)
  throw refusal(path, { ...options, maxBytes: 0 }, `is ${describeEntry(stats)}, not a file`)
}

/**
 * Opens a regular file for streamed reading (an inbox segment), with the same refusals as
 * `readRegularFileSync` except the size cap; null when it does not exist. The caller closes it.
 */
export async function openRegularFile(
  path: string,
  options: Omit<SafeReadOptions, 'maxBytes'>,
): Promise<FileHandle | null> {
  let handle: FileHandle
  try {
    handle = await open(path, READ_FLAGS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    throw refusal(path, { ...options, maxBytes: 0 }, failedOpen(path, error))
  }
  const stats = await handle.stat()
  if (stats.isFile()) return handle
  await handle.close()
  throw refusal(path, { ...options, maxBytes: 0 }, `is ${describeEntry(stats)}, not a file`)
}

/**
 * Opens `path` to append (creating it), refusing what is not a regular file: opening a FIFO
 * for writing would wait for a reader forever, and a symlink would lead the write elsewhere.
 * Returns the descriptor; the caller closes it.
 */
export function openRegularForAppendSync(
  path: string,
  options: Omit<SafeReadOptions, 'maxBytes'> & { readable?: boolean },
): number {
  const flags =
    (options.readable ? constants.O_RDWR : constants.O_WRONLY) |
    constants.O_APPEND |
    constants.O_CREAT |
    (constants.O_NOFOLLOW ?? 0) |
    (constants.O_NONBLOCK ?? 0)
  return openRegularSync(path, flags, options, 'absent-throws')
}

/** Reads what `fd` (a regular file) holds from its start, up to `maxBytes`. */
export function readDescriptorSync(fd: number, path: string, options: SafeReadOptions): Buffer {
  const size = fstatSync(fd).size
  if (size > options.maxBytes)
    throw refusal(path, options, `is ${size} bytes, over the ${options.maxBytes}-byte limit for it`)
  const data = Buffer.allocUnsafe(size)
  let offset = 0
  while (offset < size) {
    const read = readSync(fd, data, offset, size - offset, offset)
    if (read === 0) break
    offset += read
  }
  return data.subarray(0, offset)
}

/**
 * `readRegularFileSync` a chunk at a time, for a file whose whole would cost too much to hold
 * with what is made of it (a transcript of hundreds of MB exported): the same refusals and the
 * same cap, checked as it is read. Null when the file does not exist. Its descriptor is closed
 * when the iteration ends or is left; iterate it at once.
 */
export function readRegularChunksSync(
  path: string,
  options: SafeReadOptions,
  chunkBytes = 1024 * 1024,
): Generator<Buffer> | null {
  const fd = openRegularForReadSync(path, options)
  if (fd === null) return null
  try {
    const size = fstatSync(fd).size
    if (size > options.maxBytes)
      throw refusal(
        path,
        options,
        `is ${size} bytes, over the ${options.maxBytes}-byte limit for it`,
      )
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return chunksOf(fd, path, options, chunkBytes)
}

function* chunksOf(
  fd: number,
  path: string,
  options: SafeReadOptions,
  chunkBytes: number,
): Generator<Buffer> {
  try {
    let total = 0
    for (;;) {
      // A buffer of its own each time: the reader may keep a chunk's tail past the next read.
      const chunk = Buffer.allocUnsafe(chunkBytes)
      const read = readSync(fd, chunk, 0, chunk.length, null)
      if (read === 0) return
      total += read
      if (total > options.maxBytes)
        throw refusal(
          path,
          options,
          `grew over the ${options.maxBytes}-byte limit while being read`,
        )
      yield chunk.subarray(0, read)
    }
  } finally {
    closeSync(fd)
  }
}

/** `readRegularFileSync` as UTF-8 text. */
export function readRegularTextSync(path: string, options: SafeReadOptions): string | null {
  return readRegularFileSync(path, options)?.toString('utf8') ?? null
}

/** Why an open failed, in words; exported so that the errno mapping is tested as it is. */
export function openFailure(code: string | undefined, error: unknown): string {
  switch (code) {
    case 'ELOOP':
    case 'EMLINK': // what FreeBSD says for O_NOFOLLOW on a symlink
      return 'is a symbolic link, which is never followed here'
    case 'ENXIO':
      return 'is a socket (or a device with nothing behind it), not a file'
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied'
    case 'ENOTDIR':
      return 'cannot be reached: a part of its path is a file where a folder is needed'
    case 'EISDIR':
      return 'is a folder, not a file'
    default:
      return `cannot be opened (${code ?? (error instanceof Error ? error.message : String(error))})`
  }
}

/**
 * Why opening `path` failed. ELOOP and ENXIO each stand for more than one kind of entry (ENXIO:
 * a socket, or a FIFO opened for writing with no reader), so the entry is looked at to say
 * which; that look is only for the words, the refusal stands either way.
 */
function failedOpen(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ELOOP' || code === 'ENXIO' || code === 'EMLINK') {
    try {
      const stats = lstatSync(path)
      if (stats.isSymbolicLink()) return openFailure('ELOOP', error)
      if (!stats.isFile()) return `is ${describeEntry(stats)}, not a file`
    } catch {
      // Gone meanwhile: the errno's own words below.
    }
  }
  return openFailure(code, error)
}

function readAll(fd: number, path: string, options: SafeReadOptions): Buffer {
  // Read one byte past the cap: a file that grew after fstat is refused too, not cut short.
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, options.maxBytes + 1 - total) || 1)
    const read = readSync(fd, chunk, 0, chunk.length, null)
    if (read === 0) break
    chunks.push(chunk.subarray(0, read))
    total += read
    if (total > options.maxBytes)
      throw refusal(path, options, `grew over the ${options.maxBytes}-byte limit while being read`)
  }
  return Buffer.concat(chunks, total)
}

function refusal(path: string, options: SafeReadOptions, problem: string): TeamError {
  const remedy =
    options.remedy ??
    'Move it aside (or remove it) so that the team can recreate it, then try again.'
  return new TeamError(options.code ?? 'io', `${options.what} ${path} ${problem}. ${remedy}`, {
    file: path,
    line: 1,
    column: 1,
  })
}
