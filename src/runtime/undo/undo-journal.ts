import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { undoResultSchema, undoTargetSchema } from '../../shared/undo'
import { ensurePrivateFolder } from '../fs/app-folders'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularFileSync, readRegularTextSync } from '../fs/safe-open'

/**
 * An undo's journal, in the workspace's data folder (`undo/<name>/<undo id>.json`), written
 * before the first file is touched: what the undo writes and removes (the blobs staged beside it
 * in `<undo id>.blobs/`), the branch move, and which of its steps are done. An undo that a crash
 * cut short is found on the next open and finished from here (`staged`), so the folder ends in
 * the new state, never a mix; one whose files could not be written is taken back to its
 * `before` checkpoint (`rolled-back`). A `done` journal is what a redo reads.
 */
export const undoJournalSchema = z.object({
  v: z.literal(1),
  undo_id: z.string(),
  name: z.string(),
  state: z.enum(['staged', 'done', 'rolled-back']),
  target: undoTargetSchema,
  /** The checkpoint restored. */
  checkpoint: z.number().int().min(1),
  /** The checkpoint taken just before: what the redo (or a roll-back) goes back to. */
  before: z.number().int().min(1),
  redo_of: z.string().optional(),
  writes: z.array(z.object({ path: z.string(), mode: z.string(), blob: z.string() })),
  removes: z.array(z.string()),
  kept: z.array(z.string()),
  reset: z.object({ ref: z.string(), from: z.string(), to: z.string() }).nullable(),
  turns: z.object({ from: z.number().int(), to: z.number().int() }),
  reason: z.string(),
  by: z.string(),
  steps: z.object({
    files: z.boolean(),
    branch: z.boolean(),
    transcript: z.boolean(),
    notice: z.boolean(),
  }),
  at: z.number(),
  /** Why it was rolled back, or what a finished step could not do. */
  note: z.string().optional(),
})
export type UndoJournal = z.infer<typeof undoJournalSchema>

export const undoOutcomeSchema = z.union([
  z.object({ ok: z.literal(true), result: undoResultSchema }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
])
export type UndoOutcome = z.infer<typeof undoOutcomeSchema>

export class UndoJournals {
  readonly root: string

  constructor(dataFolder: string) {
    this.root = join(dataFolder, 'undo')
  }

  folder(name: string): string {
    return join(this.root, name)
  }

  blobsOf(journal: Pick<UndoJournal, 'name' | 'undo_id'>): string {
    return join(this.folder(journal.name), `${journal.undo_id}.blobs`)
  }

  write(journal: UndoJournal): void {
    ensurePrivateFolder(this.folder(journal.name))
    writeFileAtomicSync(
      join(this.folder(journal.name), `${journal.undo_id}.json`),
      `${JSON.stringify(journal)}\n`,
      { mode: 0o600 },
    )
  }

  read(name: string, undoId: string): UndoJournal | null {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(undoId)) return null
    try {
      const text = readRegularTextSync(join(this.folder(name), `${undoId}.json`), {
        what: `The journal of undo ${undoId}`,
        maxBytes: FILE_CAPS.log,
      })
      if (text === null) return null
      const parsed = undoJournalSchema.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  /** Every journal of `name`, oldest first. */
  list(name: string): UndoJournal[] {
    let files: string[]
    try {
      files = readdirSync(this.folder(name)).filter((file) => file.endsWith('.json'))
    } catch {
      return []
    }
    return files
      .map((file) => this.read(name, file.slice(0, -'.json'.length)))
      .filter((journal): journal is UndoJournal => journal !== null)
      .sort((a, b) => a.at - b.at)
  }

  /** Every agent with journals. */
  names(): string[] {
    try {
      return readdirSync(this.root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
    } catch {
      return []
    }
  }

  /**
   * How an undo the CLI asked a running team for ended (`<undo id>.outcome.json`): its result, or
   * the refusal's code and words. The CLI waits for this file.
   */
  writeOutcome(name: string, undoId: string, outcome: UndoOutcome): void {
    ensurePrivateFolder(this.folder(name))
    writeFileAtomicSync(
      join(this.folder(name), `${undoId}.outcome.json`),
      `${JSON.stringify(outcome)}\n`,
      { mode: 0o600 },
    )
  }

  readOutcome(name: string, undoId: string): UndoOutcome | null {
    try {
      const text = readRegularTextSync(join(this.folder(name), `${undoId}.outcome.json`), {
        what: `The outcome of undo ${undoId}`,
        maxBytes: FILE_CAPS.record,
      })
      if (text === null) return null
      const parsed = undoOutcomeSchema.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  /** Keeps `blob`'s bytes beside the journal, until the undo is done. */
  stageBlob(journal: Pick<UndoJournal, 'name' | 'undo_id'>, blob: string, data: Buffer): void {
    const folder = ensurePrivateFolder(this.blobsOf(journal))
    writeFileSync(join(folder, blob), data, { mode: 0o600, flush: true })
  }

  stagedBlob(journal: Pick<UndoJournal, 'name' | 'undo_id'>, blob: string): Buffer {
    const data = readRegularFileSync(join(this.blobsOf(journal), blob), {
      what: `A staged file of undo ${journal.undo_id}`,
      maxBytes: 4 * 1024 * 1024 * 1024,
    })
    if (data === null) throw new Error(`staged blob ${blob} of undo ${journal.undo_id} is missing`)
    return data
  }

  dropBlobs(journal: Pick<UndoJournal, 'name' | 'undo_id'>): void {
    rmSync(this.blobsOf(journal), { recursive: true, force: true })
  }
}
