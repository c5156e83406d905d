import { z } from 'zod'
import { taskIdSchema } from './tasks'

/**
 * Undo of what an agent did: a checkpoint of its working folder before every model turn that
 * may change files (kept in hidden refs `refs/agent-teams/checkpoints/<name>/<seq>`, never on its
 * branch), and the plans and results of restoring one. The window, the CLI
 * (`agent-teams undo`) and the runtime share these shapes.
 */

/** What to undo: the last N turns, everything done for a task, or back to a checkpoint. */
export const undoTargetSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('turns'), turns: z.number().int().min(1).max(10_000) }),
  z.object({ by: z.literal('task'), task: taskIdSchema }),
  /** Back to checkpoint `seq` (the state before the turn it was taken for). */
  z.object({ by: z.literal('checkpoint'), seq: z.number().int().min(1) }),
])
export type UndoTarget = z.infer<typeof undoTargetSchema>

export const checkpointSchema = z.object({
  /** 1, 2, … per agent: the ref is `refs/agent-teams/checkpoints/<name>/<seq>`. */
  seq: z.number().int().min(1),
  /** The transcript seq of the turn it was taken before (the turn's first record). */
  turnSeq: z.number().int().min(1),
  /** Seconds since the epoch. */
  at: z.number(),
  /** The commit that holds the folder's files (tracked, untracked and deleted; not ignored). */
  commit: z.string(),
  /** Where the agent's branch (HEAD) was then. */
  head: z.string().nullable(),
  /** The task the agent had in progress then, if any. */
  task: taskIdSchema.nullable(),
  /**
   * Why it was taken: before a model turn (`turn`, absent in the first shapes), as the agent
   * went to rest after an activation (`rest`: what changed after it is someone else's doing),
   * or just before an undo (`undo`: what that undo's redo goes back to).
   */
  kind: z.enum(['turn', 'rest', 'undo']).optional(),
  /**
   * A `turn` checkpoint that opens an activation (the agent took up new work): `--turns N` goes
   * back to the N-th last of these, the same "turn" as the Changes view's last-turn diff.
   */
  opensTurn: z.boolean().optional(),
})
export type Checkpoint = z.infer<typeof checkpointSchema>

export const undoFileSchema = z.object({
  path: z.string(),
  /** What the undo does to it: A (brings it back), M (restores its content), D (removes it). */
  change: z.enum(['A', 'M', 'D']),
  /** The unified diff from now to what the undo restores. */
  patch: z.string(),
  /**
   * Who else changed it since the undone turns (the person, or another agent's name); null when
   * only this agent did. Such a file is never overwritten unless the person says so.
   */
  changedBy: z.string().nullable(),
})
export type UndoFile = z.infer<typeof undoFileSchema>

export const undoPlanSchema = z.object({
  name: z.string(),
  target: undoTargetSchema,
  /** The checkpoint the folder goes back to. */
  checkpoint: checkpointSchema,
  files: z.array(undoFileSchema),
  /** The transcript records (first and last seq) that will be marked "undone". */
  turns: z.object({ from: z.number().int().min(1), to: z.number().int().min(1) }),
  /** Commits the agent made in the undone range, and what happens to its branch. */
  commits: z.object({
    count: z.number().int().min(0),
    /** none: no commit; reset: the branch goes back to the checkpoint's; refused: see reason. */
    action: z.enum(['none', 'reset', 'refused']),
    /** Why a reset is refused (a merge or another branch holds them), and the way out. */
    reason: z.string().nullable(),
  }),
  /** Files the checkpoint does not cover (ignored by git), listed, never touched. */
  notCovered: z.array(z.string()),
  /** Names the state this plan was made from: applying it refuses when anything moved since. */
  planId: z.string(),
})
export type UndoPlan = z.infer<typeof undoPlanSchema>

export const undoResultSchema = z.object({
  /** The undo's own id: `redoUndo` takes it back. */
  undoId: z.string(),
  restored: z.array(z.string()),
  /** Files changed by someone else that were left as they are. */
  kept: z.array(z.string()),
  /** Where the branch was reset to, when it was. */
  resetTo: z.string().nullable(),
  summary: z.string(),
})
export type UndoResult = z.infer<typeof undoResultSchema>

/**
 * Whether a mail message is an undo's notice (sent from the person, with an `undo` extra: the
 * undo's id). It wakes its agent like any mail from the person: it reads what was undone first.
 */
export function isUndoNotice(message: {
  readonly extra: Readonly<Record<string, unknown>>
}): boolean {
  const undo = message.extra['undo']
  return typeof undo === 'object' && undo !== null
}

/** How many checkpoints are kept: the person sees and sets it. */
export const checkpointPolicySchema = z.object({
  /** Per agent, the newest kept. */
  maxPerAgent: z.number().int().min(1).max(100_000),
  /** Older ones are dropped (days). */
  maxAgeDays: z.number().min(0.01).max(3650),
})
export type CheckpointPolicy = z.infer<typeof checkpointPolicySchema>

/** The defaults of the checkpoint policy. */
export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = { maxPerAgent: 500, maxAgeDays: 14 }

/** The fields of a transcript's `undo` record that say which records are undone. */
export interface UndoMark {
  readonly kind: string
  readonly undo_id?: string
  readonly from_seq?: number
  readonly to_seq?: number
  readonly redo_of?: string
}

/**
 * Which transcript records are undone now, as `[from, to]` seq ranges: every `undo` record
 * marks its range, and a redo (`redo_of`) takes the marking of the undo it names back. A pure
 * fold over the records in order; what the window and the CLI draw as "undone".
 */
export function undoneRanges(records: Iterable<UndoMark>): Array<readonly [number, number]> {
  const ranges = new Map<string, readonly [number, number]>()
  for (const record of records) {
    if (record.kind !== 'undo' || record.undo_id === undefined) continue
    if (record.redo_of !== undefined) ranges.delete(record.redo_of)
    ranges.set(record.undo_id, [record.from_seq ?? 0, record.to_seq ?? -1])
  }
  return [...ranges.values()]
}

/** Whether the record `seq` is in one of `ranges` (`undoneRanges`). */
export function isUndone(ranges: ReadonlyArray<readonly [number, number]>, seq: number): boolean {
  return ranges.some(([from, to]) => seq >= from && seq <= to)
}

/** An `undo` record in words, for the CLI, search, exports and summaries. */
export function undoWords(record: {
  readonly from_seq: number
  readonly to_seq: number
  readonly checkpoint: number
  readonly redo_of?: string
  readonly restored: readonly string[]
  readonly kept: readonly string[]
  readonly reset_to: string | null
  readonly by: string
}): string {
  const what =
    record.redo_of === undefined
      ? `${record.by} undid records #${record.from_seq}–#${record.to_seq}`
      : `${record.by} redid what undo ${record.redo_of} took back (records #${record.from_seq}–#${record.to_seq} are undone by it)`
  const files = `${record.restored.length} file${record.restored.length === 1 ? '' : 's'} restored to checkpoint ${record.checkpoint}`
  const kept =
    record.kept.length === 0 ? '' : `; kept as others left them: ${record.kept.join(', ')}`
  const reset = record.reset_to === null ? '' : `; branch reset to ${record.reset_to.slice(0, 12)}`
  return `${what}: ${files}${kept}${reset}.`
}
