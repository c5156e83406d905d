import { z } from 'zod'
import { taskIdSchema } from './tasks'
import {
  branchActionSchema,
  branchSchema,
  diffScopeSchema,
  mergeResultSchema,
  reviewDiffSchema,
  revisionSchema,
  worktreeViewSchema,
} from './worktree'

const empty = z.object({}).strict()
const name = z.string().min(1).max(64)

/**
 * The worktree and review commands of the contract (merged into `commands` in ./contract):
 * each teammate's branch, its diff, line comments, merge, reject and removal.
 */
export const reviewCommands = {
  /** Every teammate's worktree (branch, changed files, overlaps) and the team's default. */
  getWorktrees: {
    params: empty,
    result: z.object({
      /** Whether the workspace is a git repository with a commit (else: shared mode only). */
      available: z.boolean(),
      /** Whether a spawn gives a worktree when it does not say. */
      defaultOn: z.boolean(),
      teammates: z.array(worktreeViewSchema.extend({ name: z.string() })),
    }),
  },
  setWorktreeDefault: { params: z.object({ on: z.boolean() }).strict(), result: empty },
  /** A teammate's changes: its branch against the base, its last turn, a task, or a range. */
  getReviewDiff: {
    params: z
      .object({
        name,
        scope: diffScopeSchema,
        /** The task of the "task" scope. */
        task: taskIdSchema.optional(),
        from: revisionSchema.optional(),
        to: revisionSchema.optional(),
      })
      .strict(),
    result: reviewDiffSchema,
  },
  /**
   * Accept: merge its branch into its base (or `into`), with a merge commit or a squash.
   * `confirm`: the person has seen which files that change how git or the app behaves it
   * brings (a first try answers `needs-confirmation` with them).
   */
  mergeTeammate: {
    params: z
      .object({
        name,
        squash: z.boolean(),
        into: branchSchema.optional(),
        confirm: z.boolean().optional(),
      })
      .strict(),
    result: mergeResultSchema,
  },
  /** Sends a conflict back to the teammate to resolve in its worktree. */
  handBackConflict: {
    params: z
      .object({ name, into: branchSchema, files: z.array(z.string().max(4096)).max(10_000) })
      .strict(),
    result: empty,
  },
  rejectChanges: {
    params: z.object({ name, reason: z.string().min(1).max(100_000) }).strict(),
    result: empty,
  },
  /** A comment on one line of a teammate's diff, sent to its inbox. */
  commentOnLine: {
    params: z
      .object({
        name,
        file: z.string().min(1).max(4096),
        line: z.number().int().min(1),
        text: z.string().min(1).max(100_000),
      })
      .strict(),
    result: empty,
  },
  /** Takes a teammate off the team; a branch with unmerged work needs `branch`. */
  removeTeammate: {
    params: z.object({ name, branch: branchActionSchema.optional() }).strict(),
    result: z.object({ summary: z.string() }),
  },
}
