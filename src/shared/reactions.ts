import { z } from 'zod'
import { REACTION_KINDS, type ReactionKind } from './unattended-log'

/**
 * Reactions: what the app does by itself to keep a team moving while nobody watches. A check
 * command after each commit of a teammate, a nudge to a silent agent or one idle with an open
 * task (then an entry in Needs-you), a merge conflict sent to the branch's owner. Configured per
 * team in `.team/reactions.json` (below); each reaction is a line of `.team/reactions.jsonl`
 * (`unattended-log.ts`).
 */

export const REACTIONS_FILE = 'reactions.json'

/** The longest check command, in characters. */
export const MAX_CHECK_COMMAND = 2000
/** A check runs at most this long (one hour); a hung test is killed there. */
export const MAX_CHECK_TIMEOUT_SECONDS = 3600
/** Stall, idle and escalation delays: from 10 seconds to a day. */
export const MIN_DELAY_SECONDS = 10
export const MAX_DELAY_SECONDS = 86_400

const delaySeconds = z.number().int().min(MIN_DELAY_SECONDS).max(MAX_DELAY_SECONDS)

export const checkCommandSchema = z
  .object({
    /** Run with bash in the teammate's worktree, in its sandbox (`npm test`). */
    command: z
      .string()
      .min(1)
      .max(MAX_CHECK_COMMAND)
      .refine((command) => command.trim().length > 0, { message: 'is blank' })
      .refine((command) => !command.includes('\0'), { message: 'holds a NUL character' }),
    timeout_seconds: z.number().int().min(1).max(MAX_CHECK_TIMEOUT_SECONDS),
  })
  .strict()
export type CheckCommand = z.infer<typeof checkCommandSchema>

/** A nudge that can be turned off, and after how long without a move it comes. */
export const nudgeSettingSchema = z
  .object({ on: z.boolean(), after_seconds: delaySeconds })
  .strict()
export type NudgeSetting = z.infer<typeof nudgeSettingSchema>

/** `.team/reactions.json`, format version 1. Every field is required in the file. */
export const reactionsConfigSchema = z
  .object({
    version: z.literal(1),
    /** The check command; null: none runs. */
    check: checkCommandSchema.nullable(),
    /** A working agent that sends nothing for this long is nudged. */
    stall: nudgeSettingSchema,
    /** An idle agent that still holds an in-progress task for this long is nudged. */
    idle_task: nudgeSettingSchema,
    /** After a nudge, how long without a move before Needs-you and a notification. */
    escalate_after_seconds: delaySeconds,
    /** A merge of a teammate's branch that conflicts is sent to it to resolve. */
    conflicts: z.boolean(),
  })
  .strict()
export type ReactionsConfig = z.infer<typeof reactionsConfigSchema>

/** What a team without `.team/reactions.json` does. */
export const DEFAULT_REACTIONS: ReactionsConfig = {
  version: 1,
  check: null,
  stall: { on: true, after_seconds: 600 },
  idle_task: { on: true, after_seconds: 600 },
  escalate_after_seconds: 600,
  conflicts: true,
}

/** A change the person makes (Settings, `agent-teams reactions set`): what it leaves out stays. */
export const reactionsChangeSchema = z
  .object({
    check: checkCommandSchema.nullable().optional(),
    stall: nudgeSettingSchema.partial().strict().optional(),
    idle_task: nudgeSettingSchema.partial().strict().optional(),
    escalate_after_seconds: delaySeconds.optional(),
    conflicts: z.boolean().optional(),
  })
  .strict()
export type ReactionsChange = z.infer<typeof reactionsChangeSchema>

/** The change applied to a configuration (checked again whole). */
export function applyReactionsChange(
  config: ReactionsConfig,
  change: ReactionsChange,
): ReactionsConfig {
  return reactionsConfigSchema.parse({
    ...config,
    ...(change.check === undefined ? {} : { check: change.check }),
    stall: { ...config.stall, ...change.stall },
    idle_task: { ...config.idle_task, ...change.idle_task },
    ...(change.escalate_after_seconds === undefined
      ? {}
      : { escalate_after_seconds: change.escalate_after_seconds }),
    ...(change.conflicts === undefined ? {} : { conflicts: change.conflicts }),
  })
}

export const reactionCountsSchema = z.record(z.enum(REACTION_KINDS), z.number().int().min(0))
export type ReactionCounts = Record<ReactionKind, number>

export function emptyCounts(): ReactionCounts {
  return { check: 0, nudge: 0, escalate: 0, conflict: 0, fold: 0 }
}

export const CHECK_STATES = ['running', 'passed', 'failed'] as const
export type CheckState = (typeof CHECK_STATES)[number]

/** A teammate's last check: what its branch line and Changes show. */
export const checkResultSchema = z.object({
  agent: z.string(),
  state: z.enum(CHECK_STATES),
  /** The commit it tested (full id). */
  commit: z.string().nullable(),
  command: z.string(),
  /** Seconds since the epoch. */
  started_at: z.number(),
  ended_at: z.number().nullable(),
  exit_code: z.number().int().nullable(),
  /** One line for people: "passed", "failed (exit 1)", "timed out after 600 s". */
  summary: z.string(),
  /** The output's last characters (shown on demand). */
  output_tail: z.string(),
})
export type CheckResult = z.infer<typeof checkResultSchema>

/** What the window and the CLI show of the team's reactions. */
export const reactionsViewSchema = z.object({
  config: reactionsConfigSchema,
  /** Why `.team/reactions.json` cannot be used (the defaults apply meanwhile); null: it can. */
  problem: z.string().nullable(),
  /**
   * Whether the reactions run: only while the person trusts the workspace (a check command a
   * cloned repository ships runs nothing until then).
   */
  trusted: z.boolean(),
  /** How many of each kind `.team/reactions.jsonl` holds. */
  counts: reactionCountsSchema,
  /** Lines of the log that could not be read (counted nowhere). */
  unreadable_lines: z.number().int().min(0),
  /** Each teammate's last check, newest first. */
  checks: z.array(checkResultSchema),
})
export type ReactionsView = z.infer<typeof reactionsViewSchema>
