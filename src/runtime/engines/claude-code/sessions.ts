import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../../fs/durable'

/**
 * The app's own record of each Claude Code teammate's session: the session id to resume, and
 * the last transcript record (by seq) the session is known to hold. It lives in the app's data
 * folder, outside every sandbox's writable set. Claude Code's own files and output are written
 * by the sandboxed process: a session id from there is taken only when it is a UUID, and a
 * position only to hand that same session less (`handover.ts`).
 */
const sessionSchema = z.object({
  session_id: z.uuid().nullable(),
  /** The last transcript record delivered to the session, confirmed. */
  sent_through: z.number().int().min(0),
  /**
   * The last record handed to a session, confirmed or not: past `sent_through` after a crash
   * between a hand-over and the session's answer (then its log says which it was).
   */
  handed_through: z.number().int().min(0).default(0),
  /** The nonce of the last hand-over's mark (what its log must hold to show it took it). */
  handed_nonce: z.string().max(64).default(''),
  /** When the transcript it belongs to began (its first record's time): another is a reset. */
  transcript_start: z.number().nullable().default(null),
  /** The transcript's end when its last activation ended: later turns are another engine's. */
  seen_through: z.number().int().min(0).default(0),
  /** Its Claude Code process while one runs: ended by the next start if the app was killed. */
  process: z
    .object({ pid: z.number().int().min(2), start: z.string().max(64).nullable() })
    .nullable()
    .default(null),
})
export type ClaudeSession = z.infer<typeof sessionSchema>

const fileSchema = z.object({ v: z.literal(1), sessions: z.record(z.string(), z.unknown()) })

export const NEW_SESSION: ClaudeSession = {
  session_id: null,
  sent_through: 0,
  handed_through: 0,
  handed_nonce: '',
  transcript_start: null,
  seen_through: 0,
  process: null,
}

export class ClaudeSessions {
  private readonly file: string
  private sessions: Record<string, ClaudeSession>

  constructor(readonly folder: string) {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    this.file = join(folder, 'sessions.json')
    this.sessions = ClaudeSessions.read(this.file)
  }

  /** Whether `name` has run on Claude Code here before (its record exists). */
  has(name: string): boolean {
    return Object.hasOwn(this.sessions, name)
  }

  get(name: string): ClaudeSession {
    return this.sessions[name] ?? NEW_SESSION
  }

  set(name: string, session: ClaudeSession): void {
    this.sessions = { ...this.sessions, [name]: sessionSchema.parse(session) }
    writeFileAtomicSync(this.file, `${JSON.stringify({ v: 1, sessions: this.sessions })}\n`, {
      mode: 0o600,
    })
  }

  /** A missing or damaged record starts every session afresh (the transcript keeps the rest). */
  private static read(file: string): Record<string, ClaudeSession> {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      return {}
    }
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text))
      if (!parsed.success) return {}
      // Entry by entry: one bad entry loses that teammate's record, not every teammate's.
      const sessions: Record<string, ClaudeSession> = {}
      for (const [name, entry] of Object.entries(parsed.data.sessions)) {
        const session = sessionSchema.safeParse(entry)
        if (session.success) sessions[name] = session.data
      }
      return sessions
    } catch {
      return {}
    }
  }
}
