import { z } from 'zod'
import {
  checkpointPolicySchema,
  checkpointSchema,
  undoPlanSchema,
  undoResultSchema,
  undoTargetSchema,
} from './undo'

const name = z.string().min(1).max(64)

/**
 * Undo's commands in the contract (`contract.ts` spreads them into `commands`): an agent's
 * checkpoints, what an undo would change, the undo itself and its redo.
 */
export const undoCommands = {
  listCheckpoints: {
    params: z.object({ name }).strict(),
    result: z.object({
      checkpoints: z.array(checkpointSchema),
      policy: checkpointPolicySchema,
      /** What the checkpoints' own objects take on disk, in bytes (an estimate). */
      bytes: z.number().int().min(0),
    }),
  },
  setCheckpointPolicy: { params: checkpointPolicySchema.strict(), result: checkpointPolicySchema },
  /** What an undo would change, shown before it is done (the dry run). */
  planUndo: {
    params: z.object({ name, target: undoTargetSchema }).strict(),
    result: undoPlanSchema,
  },
  /**
   * Restores the plan's files. `planId` must be the plan's (else refused: things moved); files
   * someone else changed are overwritten only when listed in `overwrite`.
   */
  applyUndo: {
    params: z
      .object({
        name,
        target: undoTargetSchema,
        planId: z.string().min(1).max(200),
        overwrite: z.array(z.string().max(4096)).max(100_000).optional(),
        /** Why, in the person's words: the agent's inbox notice says it. */
        reason: z.string().max(2000).optional(),
      })
      .strict(),
    result: undoResultSchema,
  },
  /** Takes an undo back: the files (and branch) return to what they were before it. */
  redoUndo: {
    params: z.object({ name, undoId: z.string().min(1).max(200) }).strict(),
    result: undoResultSchema,
  },
}
