import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import { TeamError, type ErrorCode } from '../../shared/errors'
import { isProcessAlive } from './processes'
import { FILE_CAPS, readRegularTextSync } from './safe-open'

export interface LockRecord {
  readonly pid: number
  readonly host: string
  readonly token: string
  readonly acquiredAt: number
  readonly purpose: string
}

/** A breaker's lock older than this was left by a process that crashed while breaking. */
const BREAK_STALE_AFTER_MS = 10_000

/** Locks this process holds, so that a second holder inside one process is refused too. */
const heldHere = new Map<string, string>()

export interface FileLock {
  readonly path: string
  release(): void
}

/**
 * An exclusive lock between processes: a file created with O_EXCL that names its holder. A lock
 * whose holder process is gone (SIGKILL, crash) is stale and taken over.
 */
export function acquireFileLock(
  path: string,
  purpose: string,
  describeBusy: (holder: string) => string,
  busyCode: ErrorCode,
): FileLock {
  mkdirSync(dirname(path), { recursive: true })
  const record: LockRecord = {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(8).toString('hex'),
    acquiredAt: Date.now(),
    purpose,
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, record)) {
      heldHere.set(path, record.token)
      return { path, release: () => release(path, record.token) }
    }
    const holder = readHolder(path)
    // Released between the two steps: the lock is free again, so try again. (Taking this for
    // a stale lock would remove the lock that a third process has just taken.)
    if (holder === 'missing') continue
    if (holder !== 'unreadable' && isAlive(holder)) {
      // A holder on another machine (a shared or synced folder) cannot be checked from here:
      // say how to take over rather than wait, or take over silently.
      const elsewhere =
        holder.host === record.host
          ? ''
          : ` If nothing runs this team on ${holder.host} any more, remove ${path} and try again.`
      throw new TeamError(
        busyCode,
        describeBusy(
          `process ${holder.pid}${holder.host === record.host ? '' : ` on ${holder.host}`}`,
        ) + elsewhere,
        holder.host === record.host ? { pid: holder.pid } : { pid: holder.pid, host: holder.host },
      )
    }
    removeStale(path, holder, record)
  }
  throw new TeamError(busyCode, describeBusy('another process (the lock kept changing hands)'))
}

function tryCreate(path: string, record: LockRecord): boolean {
  // Write the record to a temp file first and hard-link it into place: the lock file is never
  // seen half-written, and link(2) fails if the lock exists.
  const temp = `${path}.${record.token}.tmp`
  const fd = openSync(temp, 'wx', 0o644)
  try {
    writeSync(fd, JSON.stringify(record))
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(temp)
  }
}

/** The lock file's record; 'missing' when there is none, 'unreadable' when it is not a lock's. */
function readHolder(path: string): LockRecord | 'missing' | 'unreadable' {
  try {
    // A folder, FIFO or symlink in the lock's place is refused with its name (a TeamError that
    // goes up): never read, never waited on, never removed as if it were a stale lock.
    const text = readRegularTextSync(path, {
      what: 'The lock file',
      maxBytes: FILE_CAPS.cursor,
      remedy: 'Move it aside (no program holds a lock that is not a file), then try again.',
    })
    if (text === null) return 'missing'
    const parsed = JSON.parse(text) as LockRecord
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string'
      ? parsed
      : 'unreadable'
  } catch (error) {
    if (error instanceof TeamError) throw error
    return 'unreadable'
  }
}

function sameHolder(a: LockRecord | 'missing' | 'unreadable', b: LockRecord | 'unreadable') {
  return typeof a === 'string' || typeof b === 'string' ? a === b : a.token === b.token
}

function isAlive(holder: LockRecord): boolean {
  if (holder.host !== hostname()) return true
  // A lock file naming this very process is live only if this process still holds it; otherwise
  // it was left by an earlier process that had the same pid.
  if (holder.pid === process.pid) return [...heldHere.values()].includes(holder.token)
  return isProcessAlive(holder.pid)
}

/**
 * Removes a stale lock, under a second lock (`<path>.break`) that only breakers take: while it is
 * held, the lock file can change only by its holder's release, and a dead or unreadable holder
 * never releases. So a lock re-read as the same stale one is still that one when it is unlinked,
 * never a fresh lock another process has just taken in its place.
 */
export function removeStale(
  path: string,
  stale: LockRecord | 'unreadable',
  breaker: LockRecord,
): void {
  const breakPath = `${path}.break`
  if (!tryCreate(breakPath, breaker)) {
    // Another process is breaking this lock; unless it died doing so, leave it to it. A
    // breaker holds it for microseconds, so one held for seconds is left by a crash, on this
    // host or another (whose processes cannot be checked from here).
    const other = readHolder(breakPath)
    if (
      other !== 'missing' &&
      (other === 'unreadable' ||
        !isAlive(other) ||
        Date.now() - other.acquiredAt > BREAK_STALE_AFTER_MS)
    )
      moveAsideIfStill(breakPath, other)
    return
  }
  try {
    if (sameHolder(readHolder(path), stale)) unlinkIfPresent(path)
  } finally {
    if (sameHolder(readHolder(breakPath), breaker)) unlinkIfPresent(breakPath)
  }
}

/**
 * Moves a dead breaker's lock aside, and puts it back if it turned out to be a live one after
 * all. A breaker holds its lock for microseconds, so this needs a process killed within them.
 */
function moveAsideIfStill(path: string, stale: LockRecord | 'unreadable'): void {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const moved = readHolder(aside)
  if (moved !== 'missing' && !sameHolder(moved, stale)) {
    try {
      linkSync(aside, path)
    } catch {
      // Someone else took the lock meanwhile; theirs stands, and the retry will see it.
    }
  }
  unlinkSync(aside)
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

function release(path: string, token: string): void {
  if (heldHere.get(path) !== token) return
  heldHere.delete(path)
  const holder = readHolder(path)
  if (typeof holder !== 'string' && holder.token === token) unlinkSync(path)
}
