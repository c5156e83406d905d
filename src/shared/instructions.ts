import { z } from 'zod'

/**
 * Project instructions: the workspace's `AGENTS.md` and `CLAUDE.md` files (with CLAUDE.md's
 * `@path` imports) and the team note, which every agent's system prompt includes. Shapes shared
 * by the runtime, the contract and the UI.
 */

/** The version of `.team/note.json` this build writes and reads. */
export const TEAM_NOTE_VERSION = 1
/** A note is a few paragraphs of conventions, not a document: longer is refused. */
export const TEAM_NOTE_MAX_CHARS = 64_000

/** `.team/note.json`: `{"v":1,"text":"…","updated_at":<seconds>}`. */
export const teamNoteFileSchema = z.looseObject({
  v: z.literal(TEAM_NOTE_VERSION, {
    message: `is not a note format this version reads (expected ${TEAM_NOTE_VERSION})`,
  }),
  text: z.string().max(TEAM_NOTE_MAX_CHARS, {
    message: `is longer than ${TEAM_NOTE_MAX_CHARS.toLocaleString('en-US')} characters`,
  }),
  updated_at: z.number().optional(),
})
export type TeamNoteFile = z.infer<typeof teamNoteFileSchema>

export const teamNoteViewSchema = z.object({
  text: z.string(),
  /** Seconds since the epoch; null for a workspace without a note. */
  updatedAt: z.number().nullable(),
  /** Why the note file could not be read (it is then left out of every prompt). */
  problem: z.string().nullable(),
})
export type TeamNoteView = z.infer<typeof teamNoteViewSchema>

export const INSTRUCTION_KINDS = ['agents', 'claude', 'import', 'team-note'] as const

/** One file an agent's system prompt was given (or that was considered and left out). */
export const instructionFileViewSchema = z.object({
  /** Relative to the workspace (or absolute, for a worktree outside it). */
  path: z.string(),
  kind: z.enum(INSTRUCTION_KINDS),
  /** The CLAUDE.md or imported file whose `@path` brought it in; null otherwise. */
  importedBy: z.string().nullable(),
  /** Its size on disk. */
  bytes: z.number().int().min(0),
  /** Characters of it in the prompt (fewer than `totalChars` when cut; 0 when left out). */
  shownChars: z.number().int().min(0),
  totalChars: z.number().int().min(0),
  /** Why it was left out (an import outside the workspace, a cycle, the same content twice). */
  problem: z.string().nullable(),
})
export type InstructionFileView = z.infer<typeof instructionFileViewSchema>
