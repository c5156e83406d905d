import { z } from 'zod'
import { engineSchema } from './engine'
import { mcpServerNameSchema } from './mcp'
import { leadChoiceSchema, modelChoiceFields } from './model-choice'
import { isValidName, RESERVED_NAMES } from './names'
import { memberWorktreeSchema } from './worktree'
import { approvalModeSchema, profileNameSchema } from './profiles'

/** The version of config.json this build writes (a field of our own; s09's files have none). */
export const ROSTER_FORMAT_VERSION = 1

/**
 * working: in an activation; idle: done, wakes on mail; waiting: for a retry, an approval or a
 * raised budget; stalled: its model stream went silent; error: stopped by a failure (with the
 * reason); shutdown: ended by the shutdown protocol, re-spawnable; waiting-for-you: a tool call
 * or a question waits in the Needs-you queue for the person's answer (added after version 1's
 * first files: older rosters simply never hold it).
 */
export const MEMBER_STATUSES = [
  'working',
  'idle',
  'waiting',
  'stalled',
  'error',
  'shutdown',
  'waiting-for-you',
] as const
export const memberStatusSchema = z.enum(MEMBER_STATUSES)
export type MemberStatus = z.infer<typeof memberStatusSchema>

/**
 * Why an agent has its status, as data: the UI, the shell's notifications, the Needs-you
 * queue and the runtime decide from this, never from the reason's words. While `waiting`:
 * budget, auth and loop are pauses that wait for the person (a raised budget, a key, a
 * resume); retry and unreachable go on by themselves (unreachable: the model endpoint could
 * not be reached at all, which the model chip shows). While `idle`: stopped (by the person)
 * and round-cap (its activation hit the cap) say why the turn ended early.
 */
export const STATUS_CAUSES = [
  'budget',
  'auth',
  'loop',
  'retry',
  'unreachable',
  'stopped',
  'round-cap',
] as const
export const statusCauseSchema = z.enum(STATUS_CAUSES)
export type StatusCause = z.infer<typeof statusCauseSchema>

/** A pause: the agent goes on only when the person acts. */
export function isPause(cause: StatusCause | null | undefined): boolean {
  return cause === 'budget' || cause === 'auth' || cause === 'loop'
}

/**
 * What a status says besides its words, set where the status is set: why (`cause`), and for
 * `error` the failure's code (the error taxonomy's, `auth` for a refused key, `internal`).
 */
export interface StatusFacts {
  readonly cause: StatusCause | null
  readonly errorCode: string | null
}

/** A status that needs no facts (working, a plain idle, shutdown). */
export const NO_STATUS_FACTS: StatusFacts = { cause: null, errorCode: null }

/**
 * s09's member shape; extra fields (created_at, anything another tool adds) are kept. `model`
 * and `thinking` are the member's own model and thinking budget, checked when present.
 */
export const memberSchema = z.looseObject({
  name: z
    .string()
    .refine(isValidName, {
      message:
        'must be an agent name (lowercase letters, digits, "-", "_"; 1-32; starting with a letter)',
    })
    .refine((name) => !RESERVED_NAMES.includes(name), {
      message: `is reserved (${RESERVED_NAMES.join(', ')})`,
    }),
  role: z.string(),
  status: memberStatusSchema,
  ...modelChoiceFields,
  /** Its own git worktree (absent or null: it works in the shared workspace). */
  worktree: memberWorktreeSchema.nullable().optional(),
  /** The MCP servers it may use (chosen at spawn); absent or null: every server. */
  mcp_servers: z.array(mcpServerNameSchema).max(100).nullable().optional(),
  /** Its permission profile (built-in or `.team/profiles.json`); absent: implementer. */
  profile: profileNameSchema.optional(),
  /** Its own approval mode; absent: its profile's (plan-first when `plan_first` is set). */
  approval: approvalModeSchema.optional(),
  /** What runs its turns (`shared/engine.ts`); absent: builtin. */
  engine: engineSchema.optional(),
})
export type Member = z.infer<typeof memberSchema>

export const rosterSchema = z
  .looseObject({
    team_name: z.string(),
    members: z.array(memberSchema),
    /** The lead's own model and thinking (the lead is not a member, as in s09). */
    lead: leadChoiceSchema.optional(),
    /** Whether a spawn gives a teammate its own worktree by default (absent: yes, in git). */
    worktrees: z.boolean().optional(),
  })
  .superRefine((roster, context) => {
    const seen = new Set<string>()
    roster.members.forEach((member, index) => {
      if (seen.has(member.name)) {
        context.addIssue({
          code: 'custom',
          path: ['members', index, 'name'],
          message: `"${member.name}" appears twice`,
        })
      }
      seen.add(member.name)
    })
  })
export type RosterFile = z.infer<typeof rosterSchema>
