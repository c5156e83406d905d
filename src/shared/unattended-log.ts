import { z } from 'zod'

/**
 * The records of what the app does on its own while a team runs unattended: reactions
 * (`.team/reactions.jsonl`) and scheduled runs (`.team/schedule-runs.jsonl`). Each is the only
 * record of what it holds (no other file says a check ran or a schedule fired), written by the
 * runtime only, one JSON object a line, appended; the timeline and the counts read them. Anything
 * can be put under `.team/`, so a reader checks every line with these schemas and reports the
 * rest as problems.
 */

export const REACTIONS_LOG = 'reactions.jsonl'
export const SCHEDULE_RUNS_LOG = 'schedule-runs.jsonl'

const text = (max: number) => z.string().max(max)
/** Seconds since the epoch. */
const seconds = z.number().min(0).max(1e11)
const agent = z.string().min(1).max(64)

export const REACTION_KINDS = [
  /** A check command ran after a commit (`ok`: it passed). */
  'check',
  /** A stalled, silent or idle-with-an-open-task agent was nudged in its inbox. */
  'nudge',
  /** It did not move after the nudge: an entry in Needs-you, and a notification. */
  'escalate',
  /** A merge conflict was sent to the branch's owner. */
  'conflict',
  /** Wakes that would have been several turns were folded into one. */
  'fold',
] as const
export type ReactionKind = (typeof REACTION_KINDS)[number]

export const reactionLineSchema = z.looseObject({
  v: z.literal(1),
  /** `r-…`, unique in the file. */
  id: text(128).min(1),
  kind: z.enum(REACTION_KINDS),
  /** When it began (a check: when the command started). */
  at: seconds,
  /** When it ended, for what lasts (a check run); null otherwise. */
  end: seconds.nullable(),
  /** The agent it was about (a check: the teammate whose commit it tested). */
  agent,
  /** One line for people: "check `npm test` failed (exit 1) on 3f2a1c9". */
  summary: text(500),
  /** Whether it reports something wrong: a failed check, an escalation. */
  failed: z.boolean(),
  /** check: the command run, the commit tested, the exit code, the output's tail. */
  command: text(2000).optional(),
  commit: text(64).nullable().optional(),
  exit_code: z.number().int().nullable().optional(),
  output_tail: text(20_000).optional(),
  /** fold: how many wakes were folded into one turn. */
  folded: z.number().int().min(0).optional(),
  /** nudge and escalate: why (`silent`: working without a word; `idle-task`: idle holding a task). */
  reason: z.enum(['silent', 'idle-task']).optional(),
  /** idle-task nudges and escalations: the task it holds. */
  task: text(64).optional(),
})
export type ReactionLine = z.infer<typeof reactionLineSchema>

export const SCHEDULE_EVENTS = [
  /** The run began: its prompt went to the lead. */
  'started',
  /** It reached its cap: the team was stopped. */
  'capped',
  /** The lead and every teammate went idle: the run is over. */
  'finished',
  /** It was due but did not start (its previous run still worked, or it was missed and set to skip). */
  'skipped',
  /** It was due while its previous run still worked, and waits for it. */
  'waiting',
] as const
export type ScheduleEvent = (typeof SCHEDULE_EVENTS)[number]

export const scheduleRunLineSchema = z.looseObject({
  v: z.literal(1),
  /** `s-…`, unique in the file. */
  id: text(128).min(1),
  /** The run it belongs to (the `started` line's id); a `skipped` line is its own run. */
  run: text(128).min(1),
  schedule: text(64).min(1),
  event: z.enum(SCHEDULE_EVENTS),
  at: seconds,
  /**
   * The time the run was due (started, waiting, skipped): the runtime's record of which due
   * times it has dealt with, so a restart neither repeats nor forgets one. Added after the
   * first lines were written: absent, the line's `at` stands for it.
   */
  due: seconds.optional(),
  summary: text(500),
  /** What the run had spent when this line was written. */
  usd: z.number().min(0).optional(),
  tokens: z.number().int().min(0).optional(),
})
export type ScheduleRunLine = z.infer<typeof scheduleRunLineSchema>
