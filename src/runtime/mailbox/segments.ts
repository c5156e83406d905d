import { readdirSync, statSync } from 'node:fs'
import type { TeamPaths } from '../team/paths'

/**
 * How long an archived segment stays open for readers after it was moved aside: a sender that
 * opened the live file just before the move may still append to it. Any late append updates the
 * file's ctime and so extends the window.
 */
export const SEAL_GRACE_MS = 2000

/** The number of archived segments of `name`'s inbox; the live file is segment `count + 1`. */
export function archivedSegmentCount(paths: TeamPaths, name: string): number {
  let names: string[]
  try {
    names = readdirSync(paths.archiveDirectory(name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
  let highest = 0
  for (const file of names) {
    const match = /^(\d{6})\.jsonl$/.exec(file)
    if (match) highest = Math.max(highest, Number(match[1]))
  }
  return highest
}

export function segmentPath(
  paths: TeamPaths,
  name: string,
  segment: number,
  archived: number,
): string {
  return segment <= archived ? paths.archivedSegment(name, segment) : paths.inbox(name)
}

export function isSealed(path: string, now: number): boolean {
  try {
    return now - statSync(path).ctimeMs >= SEAL_GRACE_MS
  } catch {
    return true
  }
}

/** How long until `path` is sealed (at least 1 ms while it is not). */
export function sealWaitMs(path: string, now: number): number {
  try {
    return Math.max(1, Math.ceil(SEAL_GRACE_MS - (now - statSync(path).ctimeMs)))
  } catch {
    return 1
  }
}
