import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import {
  checkpointPolicySchema,
  checkpointSchema,
  DEFAULT_CHECKPOINT_POLICY,
  type CheckpointPolicy,
} from '../../shared/undo'
import { ensurePrivateFolder } from '../fs/app-folders'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'

/** A checkpoint as the app keeps it: with its tree, so an unchanged folder is seen at once. */
export const storedCheckpointSchema = checkpointSchema.extend({ tree: z.string() })
export type StoredCheckpoint = z.infer<typeof storedCheckpointSchema>

const recordsFileSchema = z.object({
  v: z.literal(1),
  /** The next checkpoint's seq: seqs are never reused, even after pruning. */
  next: z.number().int().min(1),
  checkpoints: z.array(storedCheckpointSchema),
})
type RecordsFile = z.infer<typeof recordsFileSchema>

const policyFileSchema = z.object({ v: z.literal(1), policy: checkpointPolicySchema })

/** The ref that keeps checkpoint `seq` of `name` (and its objects) alive. */
export function checkpointRef(name: string, seq: number): string {
  return `refs/agent-teams/checkpoints/${name}/${seq}`
}

/**
 * The app's record of every agent's checkpoints, in the workspace's data folder
 * (`checkpoints/<name>/records.json`), beside the temporary index each agent's checkpoints are
 * written with (`checkpoints/<name>/index`). The refs only keep the objects alive: an undo takes
 * the commit from here, never from a ref, which an agent could move. The policy is
 * `checkpoint-policy.json`, for the whole workspace.
 */
export class CheckpointRecords {
  readonly root: string
  private readonly policyFile: string

  constructor(dataFolder: string) {
    this.root = join(dataFolder, 'checkpoints')
    this.policyFile = join(dataFolder, 'checkpoint-policy.json')
  }

  /** Where `name`'s own files are (its records, its temporary index). */
  folder(name: string): string {
    return join(this.root, name)
  }

  /** The index `name`'s checkpoints are written with: the app's, never the agent's. */
  indexFile(name: string): string {
    return join(this.folder(name), 'index')
  }

  /** `name`'s checkpoints, oldest first. */
  list(name: string): StoredCheckpoint[] {
    return this.read(name).checkpoints
  }

  /** The newest checkpoint of `name`, or null. */
  last(name: string): StoredCheckpoint | null {
    return this.list(name).at(-1) ?? null
  }

  find(name: string, seq: number): StoredCheckpoint | null {
    return this.list(name).find((checkpoint) => checkpoint.seq === seq) ?? null
  }

  /** The seq the next checkpoint of `name` gets. */
  nextSeq(name: string): number {
    return this.read(name).next
  }

  /**
   * Adds `checkpoint` and drops what the policy no longer keeps (never the one added); returns
   * the dropped ones, whose refs the caller deletes.
   */
  add(name: string, checkpoint: StoredCheckpoint, now: number): StoredCheckpoint[] {
    const file = this.read(name)
    file.checkpoints.push(checkpoint)
    file.next = Math.max(file.next, checkpoint.seq + 1)
    const dropped = this.prune(file, now)
    this.write(name, file)
    return dropped
  }

  /** Applies the policy to `name`'s checkpoints now; returns the dropped ones. */
  pruneNow(name: string, now: number): StoredCheckpoint[] {
    const file = this.read(name)
    const dropped = this.prune(file, now)
    if (dropped.length > 0) this.write(name, file)
    return dropped
  }

  /** Every agent with a record of checkpoints. */
  names(): string[] {
    try {
      return readdirNames(this.root)
    } catch {
      return []
    }
  }

  policy(): CheckpointPolicy {
    try {
      const text = readRegularTextSync(this.policyFile, {
        what: 'The checkpoint policy',
        maxBytes: FILE_CAPS.cursor,
      })
      if (text === null) return DEFAULT_CHECKPOINT_POLICY
      const parsed = policyFileSchema.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data.policy : DEFAULT_CHECKPOINT_POLICY
    } catch {
      return DEFAULT_CHECKPOINT_POLICY
    }
  }

  setPolicy(policy: CheckpointPolicy): void {
    ensurePrivateFolder(this.root)
    writeFileAtomicSync(this.policyFile, `${JSON.stringify({ v: 1, policy }, null, 2)}\n`, {
      mode: 0o600,
    })
  }

  private prune(file: RecordsFile, now: number): StoredCheckpoint[] {
    const policy = this.policy()
    const oldest = now - policy.maxAgeDays * 86_400
    const newest = file.checkpoints.at(-1)
    const keptFrom = Math.max(0, file.checkpoints.length - policy.maxPerAgent)
    const kept: StoredCheckpoint[] = []
    const dropped: StoredCheckpoint[] = []
    file.checkpoints.forEach((checkpoint, index) => {
      const keep = checkpoint === newest || (index >= keptFrom && checkpoint.at >= oldest)
      ;(keep ? kept : dropped).push(checkpoint)
    })
    file.checkpoints = kept
    return dropped
  }

  private read(name: string): RecordsFile {
    const empty = (): RecordsFile => ({ v: 1, next: 1, checkpoints: [] })
    let text: string | null
    try {
      text = readRegularTextSync(join(this.folder(name), 'records.json'), {
        what: `The record of ${name}'s checkpoints`,
        maxBytes: FILE_CAPS.record,
      })
    } catch {
      return empty()
    }
    if (text === null) return empty()
    try {
      const parsed = recordsFileSchema.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data : empty()
    } catch {
      return empty()
    }
  }

  private write(name: string, file: RecordsFile): void {
    ensurePrivateFolder(this.folder(name))
    writeFileAtomicSync(join(this.folder(name), 'records.json'), `${JSON.stringify(file)}\n`, {
      mode: 0o600,
    })
  }
}

function readdirNames(folder: string): string[] {
  // Names only: each is checked to be an agent's when it is used.
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}
