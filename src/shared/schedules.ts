import { z } from 'zod'
import { NAME_PATTERN, NAME_RULE } from './names'
import { usdLimitSchema } from './budget'
import { templateNameSchema } from './templates'
import { scheduleRunLineSchema } from './unattended-log'
import { formatSecondsUtc } from './time'
import { formatDuration } from './duration'

/**
 * Scheduled runs: `.team/schedules.json` holds what the person scheduled (written only by their
 * actions: the window, `agent-teams schedule`), and `.team/schedule-runs.jsonl`
 * (`unattended-log.ts`) what the runtime did about it. What a schedule's last run was, and so
 * when it is next due, is read from that log: no second record that could drift.
 */

export const SCHEDULES_FILE = 'schedules.json'
export const SCHEDULES_VERSION = 1
/** More is not a schedule list, it is a flood: refused with the file. */
export const MAX_SCHEDULES = 100
/** The longest prompt a schedule sends: the same as a chat message. */
export const MAX_SCHEDULE_PROMPT = 200_000
/** The shortest `every`: a run a minute is already a lot of model calls. */
export const MIN_EVERY_SECONDS = 60
/** The longest `every` or `in`: a year and a day. */
export const MAX_DURATION_SECONDS = 366 * 24 * 3600
/** A run's cap when neither is given: every run has one, so an unattended team cannot run away. */
export const DEFAULT_CAP_USD = 5

/** Seconds since the epoch; `1e300` is not a time (`shared/time.ts`). */
const seconds = z.number().min(0).max(1e11)

export const scheduleNameSchema = z.string().regex(NAME_PATTERN, NAME_RULE)

/** When it runs: once (`at`, which `--in` becomes), every N seconds, or by a cron expression. */
export const scheduleWhenSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('at'), at: seconds }).strict(),
  z
    .object({
      type: z.literal('every'),
      seconds: z.number().int().min(MIN_EVERY_SECONDS).max(MAX_DURATION_SECONDS),
    })
    .strict(),
  /** Five fields (minute hour day-of-month month day-of-week), in the machine's local time. */
  z.object({ type: z.literal('cron'), cron: z.string().min(1).max(200) }).strict(),
])
export type ScheduleWhen = z.infer<typeof scheduleWhenSchema>

/** A token cap: a positive whole number. */
const tokenCapSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)

/** What a run may spend, counted from its start over the whole team; at least one is set. */
export const scheduleCapsSchema = z
  .object({ usd: usdLimitSchema, tokens: tokenCapSchema.nullable() })
  .strict()
  .refine((caps) => caps.usd !== null || caps.tokens !== null, {
    message: 'a run needs a cap: set usd or tokens',
  })
export type ScheduleCaps = z.infer<typeof scheduleCapsSchema>

/** A due run missed while no team ran: one catch-up run at the next start, or none. */
export const MISSED_POLICIES = ['run-once', 'skip'] as const
export type MissedPolicy = (typeof MISSED_POLICIES)[number]
/** A run due while another still works: it waits for it to finish, or is skipped. */
export const OVERLAP_POLICIES = ['wait', 'skip'] as const
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number]

export const scheduleSchema = z
  .object({
    name: scheduleNameSchema,
    when: scheduleWhenSchema,
    prompt: z.string().min(1).max(MAX_SCHEDULE_PROMPT),
    /** Applied to the team first when the team has no members; null: none. */
    template: templateNameSchema.nullable(),
    caps: scheduleCapsSchema,
    missed: z.enum(MISSED_POLICIES),
    overlap: z.enum(OVERLAP_POLICIES),
    enabled: z.boolean(),
    created_at: seconds,
    /** The person's last change (made, enabled, disabled): runs due before it are not owed. */
    updated_at: seconds,
  })
  .strict()
export type Schedule = z.infer<typeof scheduleSchema>

export const schedulesFileSchema = z
  .object({
    v: z.literal(SCHEDULES_VERSION),
    schedules: z.array(scheduleSchema).max(MAX_SCHEDULES),
  })
  .strict()
  .superRefine((file, context) => {
    const seen = new Set<string>()
    file.schedules.forEach((schedule, index) => {
      if (seen.has(schedule.name))
        context.addIssue({
          code: 'custom',
          path: ['schedules', index, 'name'],
          message: `"${schedule.name}" is given twice`,
        })
      seen.add(schedule.name)
    })
  })
export type SchedulesFile = z.infer<typeof schedulesFileSchema>

/**
 * A schedule as the person asks for it (the window's form, `agent-teams schedule add`): `in` is
 * a delay from now, stored as the time it ends. Caps left out are the default ($5); giving
 * either one sets only that one.
 */
export const scheduleInputSchema = z
  .object({
    name: scheduleNameSchema,
    when: z.discriminatedUnion('type', [
      z.object({ type: z.literal('at'), at: seconds }).strict(),
      z
        .object({
          type: z.literal('in'),
          seconds: z.number().int().min(1).max(MAX_DURATION_SECONDS),
        })
        .strict(),
      scheduleWhenSchema.options[1],
      scheduleWhenSchema.options[2],
    ]),
    prompt: z.string().max(MAX_SCHEDULE_PROMPT),
    template: templateNameSchema.nullable().optional(),
    usd: usdLimitSchema.optional(),
    tokens: tokenCapSchema.nullable().optional(),
    missed: z.enum(MISSED_POLICIES).optional(),
    overlap: z.enum(OVERLAP_POLICIES).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
export type ScheduleInput = z.infer<typeof scheduleInputSchema>

/** Where a schedule is now: no run, its run working, or due and waiting for another run. */
export const SCHEDULE_STATES = ['idle', 'running', 'waiting'] as const

export const scheduleViewSchema = z.object({
  schedule: scheduleSchema,
  /** When it is next due (null: never again, or disabled). */
  next_run: z.number().nullable(),
  /** The last line of its latest run (started, finished, capped, skipped…), or null. */
  last_run: scheduleRunLineSchema.nullable(),
  state: z.enum(SCHEDULE_STATES),
})
export type ScheduleView = z.infer<typeof scheduleViewSchema>

export const scheduleListingSchema = z.object({
  schedules: z.array(scheduleViewSchema),
  /** Why `.team/schedules.json` cannot be used (then nothing runs, and it is not overwritten). */
  problem: z.string().nullable(),
  /** Whether schedules fire: only while the person trusts the workspace. */
  trusted: z.boolean(),
})
export type ScheduleListing = z.infer<typeof scheduleListingSchema>

const CLOCK_PATTERN = /^([01]?\d|2[0-3]):([0-5]\d)$/
const ISO_PATTERN =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i

/**
 * A TIME as given: `HH:MM` (its next occurrence after `nowMs`, local time) or ISO 8601 with a
 * time of day (`2026-12-24T09:00`, local time unless it gives an offset or `Z`). Seconds since
 * the epoch, or why it is not a time.
 */
export function parseTime(text: string, nowMs: number): { at: number } | { problem: string } {
  const trimmed = text.trim()
  const clock = CLOCK_PATTERN.exec(trimmed)
  if (clock !== null) {
    const next = new Date(nowMs)
    next.setHours(Number(clock[1]), Number(clock[2]), 0, 0)
    if (next.getTime() <= nowMs) next.setDate(next.getDate() + 1)
    return { at: next.getTime() / 1000 }
  }
  if (!ISO_PATTERN.test(trimmed))
    return {
      problem: `"${text}" is not a time: write HH:MM (24-hour, the next one) or ISO 8601 such as 2026-12-24T09:00 or 2026-12-24T09:00Z`,
    }
  const ms = Date.parse(trimmed.replace(' ', 'T'))
  if (!Number.isFinite(ms) || ms < 0 || ms / 1000 > 1e11)
    return { problem: `"${text}" is not a date this app can hold` }
  return { at: ms / 1000 }
}

/** When a schedule runs, in words: "every 1h30m", "cron 0 9 * * 1-5", "once at 2026-12-24 09:00:00Z". */
export function describeWhen(when: ScheduleWhen): string {
  switch (when.type) {
    case 'at':
      return `once at ${formatSecondsUtc(when.at)}`
    case 'every':
      return `every ${formatDuration(when.seconds)}`
    case 'cron':
      return `cron ${when.cron}`
  }
}

/** The cap in words: "$5.00", "200,000 tokens", "$5.00 or 200,000 tokens". */
export function describeCaps(caps: ScheduleCaps): string {
  const usd = caps.usd === null ? [] : [`$${caps.usd.toFixed(2)}`]
  const tokens = caps.tokens === null ? [] : [`${caps.tokens.toLocaleString('en-US')} tokens`]
  return [...usd, ...tokens].join(' or ')
}
