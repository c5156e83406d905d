import { z } from 'zod'
import { checkResultSchema } from './reactions'

/**
 * A teammate's own git worktree (the tutorial's s12): a branch `team/<name>` checked out in a
 * folder of the team's, where its file tools and bash run. What config.json keeps of it, and
 * what the review commands take and answer.
 */

/**
 * Where teammates' worktrees were kept before they moved to the app's data folder
 * (`<workspace>/.team-worktrees/<name>`); a worktree found there is moved on its next spawn.
 */
export const LEGACY_WORKTREES_FOLDER = '.team-worktrees'

/** The branch a teammate works on. */
export function teammateBranch(name: string): string {
  return `team/${name}`
}

/**
 * A branch name as the person or config.json gives it: a plain git ref name, never an option
 * (`-x`), never `..`, `@{`, a space or a control character (git's own rules, narrowed).
 */
export const BRANCH_PATTERN =
  /^(?!.*\.\.)(?!.*@\{)(?!.*\/\/)(?!.*\.lock$)[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/
export const BRANCH_RULE =
  'a branch name is 1-200 characters: letters, digits, ".", "_", "-" and "/", starting with a letter, digit or "_", without ".." or "//"'
export const branchSchema = z
  .string({ message: `is not a branch name (${BRANCH_RULE})` })
  .regex(BRANCH_PATTERN, { message: `is not a branch name (${BRANCH_RULE})` })

/** A commit id: a revision range for a task's changes is given as two of these (or branches). */
export const revisionSchema = z
  .string()
  .regex(/^[0-9a-f]{7,64}$|^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/, {
    message: 'is not a commit id or branch name',
  })
  .refine((value) => !value.includes('..'), { message: 'may not contain ".."' })

/**
 * A member's `worktree` in config.json: the branch it was made from (where Accept merges by
 * default) and that branch's commit then. Absent or null: the member works in the shared
 * workspace. The folder and the branch are derived from the name, never read from the file,
 * so an edited config.json cannot point a teammate's tools at another folder.
 */
export const memberWorktreeSchema = z.looseObject({
  base: branchSchema,
  base_commit: z.string().regex(/^[0-9a-f]{40,64}$/, { message: 'is not a full commit id' }),
})
export type MemberWorktree = z.infer<typeof memberWorktreeSchema>

/** The whole branch, the last turn, one task of the teammate's (by its id), or a commit range. */
export const diffScopeSchema = z.enum(['branch', 'turn', 'task', 'range'])
export type DiffScope = z.infer<typeof diffScopeSchema>

export const changedFileSchema = z.object({
  path: z.string(),
  /** git's letter: A added, M modified, D deleted, R renamed, … */
  status: z.string(),
  additions: z.number().int().min(0),
  deletions: z.number().int().min(0),
  /** The file's path before a rename. */
  oldPath: z.string().nullable(),
  /** Its part of the unified diff (`git diff` output), for the diff component. */
  patch: z.string(),
})
export type ChangedFile = z.infer<typeof changedFileSchema>

export const reviewDiffSchema = z.object({
  name: z.string(),
  branch: z.string(),
  base: z.string(),
  scope: diffScopeSchema,
  files: z.array(changedFileSchema),
  /** Files that other teammates' branches change too: path → their names. */
  overlaps: z.record(z.string(), z.array(z.string())),
  /** Why the diff is not exactly the scope asked for (a task whose start was never recorded). */
  note: z.string().optional(),
})
export type ReviewDiff = z.infer<typeof reviewDiffSchema>

export const mergeResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('merged'),
    into: z.string(),
    commit: z.string(),
    squash: z.boolean(),
    files: z.array(z.string()),
  }),
  z.object({ outcome: z.literal('nothing'), into: z.string() }),
  z.object({
    outcome: z.literal('conflict'),
    into: z.string(),
    files: z.array(z.string()),
    /** The conflict was sent to the teammate by the reactions (`conflicts` on). */
    handed_back: z.boolean().optional(),
  }),
  /** It would bring in the team's own files (`.team/`): never merged; the reason says why. */
  z.object({
    outcome: z.literal('refused'),
    into: z.string(),
    files: z.array(z.string()),
    reason: z.string(),
  }),
  /**
   * It changes files that change how git or the app behaves (merge-guard.ts): merged only when
   * the person confirms (`confirm: true`, `review merge --yes`).
   */
  z.object({
    outcome: z.literal('needs-confirmation'),
    into: z.string(),
    files: z.array(z.string()),
  }),
])
export type MergeResult = z.infer<typeof mergeResultSchema>

/** What the roster shows of a teammate's worktree. */
export const worktreeViewSchema = z.object({
  branch: z.string(),
  base: z.string(),
  /** Files changed on the branch (and not yet committed in it) against the base. */
  changedFiles: z.number().int().min(0),
  /** Changed files that other teammates' branches change too, with their names. */
  overlaps: z.record(z.string(), z.array(z.string())),
  /** The check command's last run on its commits (reactions), when one ran. */
  check: checkResultSchema.optional(),
})
export type WorktreeView = z.infer<typeof worktreeViewSchema>

/** What to do with a teammate's branch when it is removed from the team. */
export const branchActionSchema = z.enum(['keep', 'merge', 'delete'])
export type BranchAction = z.infer<typeof branchActionSchema>
