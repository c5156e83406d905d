import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { ensurePrivateFolder } from '../fs/app-folders'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { isInside } from './hardening'

/**
 * The app's record of the worktrees it made, in the workspace's data folder (app-folders.ts):
 * where each is, and the git folders its teammate may write to commit. The sandbox policy and
 * every git call on a worktree take their paths from here, never from the `.git` file in the
 * worktree, which its teammate can write.
 */
export const worktreeRecordSchema = z.object({
  /** The worktree: `<data folder>/worktrees/<name>`. */
  folder: z.string(),
  /** Its own admin folder in the repository (`<common>/worktrees/<x>`: HEAD, index). */
  git_dir: z.string(),
  /** The repository's shared folder (objects, refs). */
  common_dir: z.string(),
  /** The workspace's place inside its repository ('' at the top). */
  prefix: z.string(),
  created_at: z.number(),
})
export type WorktreeRecord = z.infer<typeof worktreeRecordSchema>

const recordsFileSchema = z.object({
  v: z.literal(1),
  workspace: z.string(),
  worktrees: z.record(z.string(), worktreeRecordSchema),
})
type RecordsFile = z.infer<typeof recordsFileSchema>

export class WorktreeRecords {
  readonly file: string
  /** The folder every worktree of this workspace lives in. */
  readonly root: string

  constructor(
    private readonly dataFolder: string,
    private readonly workspace: string,
  ) {
    this.file = join(dataFolder, 'worktrees.json')
    this.root = join(dataFolder, 'worktrees')
  }

  /** `name`'s record, or null; one whose folder is not under `root` is not the app's. */
  get(name: string): WorktreeRecord | null {
    const records = this.read().worktrees
    const record = Object.hasOwn(records, name) ? records[name] : undefined
    if (record === undefined || !isInside(this.realRoot(), record.folder)) return null
    return record
  }

  /** `root` with its links resolved (worktrees are recorded by their real paths). */
  realRoot(): string {
    try {
      return realpathSync(this.root)
    } catch {
      return this.root
    }
  }

  set(name: string, record: WorktreeRecord): void {
    const file = this.read()
    file.worktrees[name] = record
    this.write(file)
  }

  delete(name: string): void {
    const file = this.read()
    if (!Object.hasOwn(file.worktrees, name)) return
    delete file.worktrees[name]
    this.write(file)
  }

  private read(): RecordsFile {
    const empty = (): RecordsFile => ({
      v: 1,
      workspace: this.workspace,
      worktrees: Object.create(null) as RecordsFile['worktrees'],
    })
    let text: string | null
    try {
      text = readRegularTextSync(this.file, {
        what: "The app's record of the teammates' worktrees",
        maxBytes: FILE_CAPS.record,
      })
    } catch {
      return empty()
    }
    if (text === null) return empty()
    try {
      const parsed = recordsFileSchema.safeParse(JSON.parse(text))
      if (!parsed.success) return empty()
      // A null-prototype copy: a teammate's name is data, never a key of Object.prototype.
      return {
        ...parsed.data,
        worktrees: Object.assign(Object.create(null), parsed.data.worktrees),
      }
    } catch {
      return empty()
    }
  }

  private write(file: RecordsFile): void {
    ensurePrivateFolder(this.dataFolder)
    writeFileAtomicSync(this.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
  }
}
