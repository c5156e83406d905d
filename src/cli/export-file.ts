import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { TeamError } from '../shared/errors'
import { writeStreamed } from './output'

/**
 * Writes an export to `path` whole or not at all: into a new file beside it, renamed over it once
 * complete, so that an export that fails half-way (a transcript refused, a full disk) leaves the
 * file that was there, and no half of one. A path that is not a regular file (a named pipe,
 * /dev/stdout) is written to directly; a symbolic link is written through, as before.
 */
export async function writeExportFile(path: string, pieces: AsyncIterable<string>): Promise<void> {
  const existing = existingFile(path)
  if (existing !== null && !existing.regular) {
    const fd = opened(path, () => openSync(path, 'w'))
    try {
      await writeStreamed(pieces, (chunk) => writeAll(fd, chunk, path))
    } finally {
      closeSync(fd)
    }
    return
  }
  const target = existing?.path ?? path
  const temporary = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
  const fd = opened(path, () => openSync(temporary, 'wx', 0o666))
  let open = true
  try {
    // The file it replaces keeps its permissions, as a write into it would.
    if (existing !== null) chmodSync(temporary, existing.mode)
    await writeStreamed(pieces, (chunk) => writeAll(fd, chunk, path))
    closeSync(fd)
    open = false
    opened(path, () => renameSync(temporary, target))
  } catch (error) {
    if (open) closeSync(fd)
    rmSync(temporary, { force: true })
    throw error
  }
}

/** What is at `path` now, followed through links; null when nothing is. */
function existingFile(path: string): { path: string; regular: boolean; mode: number } | null {
  try {
    const stats = statSync(path)
    return { path: realpathSync(path), regular: stats.isFile(), mode: stats.mode & 0o7777 }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw cannotWrite(path, error)
  }
}

function writeAll(fd: number, chunk: string, path: string): void {
  const bytes = Buffer.from(chunk)
  let offset = 0
  while (offset < bytes.length)
    offset += opened(path, () => writeSync(fd, bytes, offset, bytes.length - offset))
}

/** `action`'s file-system failure as the person reads it. */
function opened<T>(path: string, action: () => T): T {
  try {
    return action()
  } catch (error) {
    throw cannotWrite(path, error)
  }
}

function cannotWrite(path: string, error: unknown): TeamError {
  return new TeamError(
    'io',
    `Could not write ${path}: ${(error as Error).message}. Choose a file in a folder you can write to.`,
  )
}
