import { join } from 'node:path'
import { z } from 'zod'
import {
  readWorkspaceRecords,
  writeWorkspaceRecords,
  type WorkspaceRecords,
} from '../fs/workspace-records'
import { isTimelineTime } from './entry-parts'

export const SEEN_FILE = 'timeline-seen.json'

/** Per workspace (its absolute path), the moment up to which the person has looked (seconds). */
type SeenFile = WorkspaceRecords<number>

/**
 * When the person last looked at each workspace's team: the start of "while you were away".
 * The app's own record, in the user's config folder beside the trust store (`.team/` is the
 * team's and a repository can ship one), replaced atomically. A file that cannot be read is
 * treated as never looked, and replaced at the next look.
 */
export class TimelineSeenStore {
  constructor(private readonly directory: string) {}

  get file(): string {
    return join(this.directory, SEEN_FILE)
  }

  /** When the person last looked at `workspace`, or null when never. */
  lastSeen(workspace: string): number | null {
    const workspaces = this.read().workspaces
    const at = Object.hasOwn(workspaces, workspace) ? workspaces[workspace] : undefined
    return isTimelineTime(at) ? at : null
  }

  /** The person looked up to `at`; a later look already recorded (another window) is kept. */
  markSeen(workspace: string, at: number): void {
    const file = this.read()
    const before = Object.hasOwn(file.workspaces, workspace)
      ? file.workspaces[workspace]
      : undefined
    file.workspaces[workspace] = isTimelineTime(before) ? Math.max(before, at) : at
    writeWorkspaceRecords(this.file, file)
  }

  private read(): SeenFile {
    return readWorkspaceRecords(
      this.file,
      'The record of when you last looked at each team',
      z.number(),
    )
  }
}
