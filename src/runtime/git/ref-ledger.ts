import { dirname } from 'node:path'
import { z } from 'zod'
import { ensurePrivateFolder } from '../fs/app-folders'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'

const ledgerSchema = z.object({ v: z.literal(1), refs: z.record(z.string(), z.string()) })

/**
 * The app's own refs (`refs/agent-teams/…`: turn starts, task marks) and the commit it last set
 * each to, kept in the workspace's data folder. A ref that no longer holds what the app set was
 * moved by someone else (the sandbox keeps those refs read-only to agents; this is the check
 * that does not depend on it), and a review never starts from it.
 */
export class RefLedger {
  constructor(private readonly file: string) {}

  get(ref: string): string | null {
    const refs = this.read()
    return Object.hasOwn(refs, ref) ? (refs[ref] ?? null) : null
  }

  set(ref: string, commit: string): void {
    const refs = this.read()
    refs[ref] = commit
    this.write(refs)
  }

  delete(ref: string): void {
    const refs = this.read()
    if (!Object.hasOwn(refs, ref)) return
    delete refs[ref]
    this.write(refs)
  }

  /** Forgets every ref under `prefix` (a teammate's task marks when it leaves). */
  deleteUnder(prefix: string): void {
    const refs = this.read()
    const kept = Object.fromEntries(Object.entries(refs).filter(([ref]) => !ref.startsWith(prefix)))
    if (Object.keys(kept).length !== Object.keys(refs).length) this.write(kept)
  }

  private read(): Record<string, string> {
    const empty = (): Record<string, string> => Object.create(null) as Record<string, string>
    try {
      const text = readRegularTextSync(this.file, {
        what: "The app's record of its own git refs",
        maxBytes: FILE_CAPS.record,
      })
      if (text === null) return empty()
      const parsed = ledgerSchema.safeParse(JSON.parse(text))
      return parsed.success ? Object.assign(empty(), parsed.data.refs) : empty()
    } catch {
      return empty()
    }
  }

  private write(refs: Record<string, string>): void {
    ensurePrivateFolder(dirname(this.file))
    writeFileAtomicSync(this.file, `${JSON.stringify({ v: 1, refs }, null, 2)}\n`, { mode: 0o600 })
  }
}
