import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { isTimelineTime } from './entry-parts'

export const SEEN_FILE = 'timeline-seen.json'

const fileSchema = z.object({
  v: z.literal(1),
  /** Per workspace (its absolute path), the moment up to which the person has looked (seconds). */
  workspaces: z.record(z.string(), z.number()),
})
type SeenFile = z.infer<typeof fileSchema>

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
    mkdirSync(this.directory, { recursive: true })
    writeFileAtomicSync(this.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
  }

  private read(): SeenFile {
    const none = (): SeenFile => ({
      v: 1,
      workspaces: Object.create(null) as SeenFile['workspaces'],
    })
    try {
      const text = readRegularTextSync(this.file, {
        what: 'The record of when you last looked at each team',
        maxBytes: FILE_CAPS.record,
      })
      if (text === null) return none()
      const parsed = fileSchema.safeParse(JSON.parse(text))
      if (!parsed.success) return none()
      // A null-prototype copy: a workspace path is data, never a key of Object.prototype.
      return { v: 1, workspaces: Object.assign(none().workspaces, parsed.data.workspaces) }
    } catch {
      return none()
    }
  }
}
