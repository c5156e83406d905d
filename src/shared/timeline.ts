import { z } from 'zod'
import { NAME_PATTERN } from './names'
import { positionSchema } from './position'
import { TASK_STATUSES } from './tasks'

/**
 * The team's timeline: one ordered stream of everything the team did, assembled from the
 * records the runtime already keeps (transcripts, inboxes, the task board, the Needs-you queue,
 * the app's ref ledger, the reactions' and schedules' own logs), never a second log that could
 * drift. The window's Timeline view, its replay and `agent-teams timeline` all read this shape.
 */

export const TIMELINE_KINDS = [
  /** A message sent (one entry per send), with its delivery state. */
  'message',
  /** An agent's status changed: an activation began or ended (idle, stopped, error, round cap…). */
  'status',
  /** One model turn, with its tokens and cost. */
  'turn',
  /** One tool call and its result. */
  'tool',
  /** A task made, claimed, moved or finished on the board. */
  'task',
  /** Something asked of the person (an approval, a question, a plan) or their answer. */
  'approval',
  /** A budget reached: the agent or the team paused. */
  'budget',
  /** A conversation compacted. */
  'compaction',
  /** A commit on a teammate's branch. */
  'commit',
  /** A branch merged (or a merge that conflicted). */
  'merge',
  /** A check command ran after a commit, and its outcome. */
  'check',
  /** A reaction the app took on its own: a nudge, an escalation, a folded wake. */
  'reaction',
  /** A scheduled run started, reached its cap, finished or was skipped. */
  'schedule',
] as const
export type TimelineKind = (typeof TIMELINE_KINDS)[number]
export const timelineKindSchema = z.enum(TIMELINE_KINDS)

const agentName = z.string().regex(NAME_PATTERN, 'must be an agent name')
/** Seconds since the epoch, as every record under `.team/` writes them. */
const seconds = z.number().min(0).max(1e11)

/** Where the record behind an entry is, so a click can open it. */
export const timelineSourceSchema = z.discriminatedUnion('type', [
  /** A transcript record of `agent`, by its seq. */
  z.object({ type: z.literal('transcript'), agent: z.string(), seq: z.number().int().min(1) }),
  /** A message in `agent`'s inbox, by its id and (when still there) its position. */
  z.object({
    type: z.literal('inbox'),
    agent: z.string(),
    id: z.string(),
    position: positionSchema.nullable(),
  }),
  z.object({ type: z.literal('task'), id: z.string() }),
  z.object({ type: z.literal('needs-you'), id: z.string() }),
  /** A commit, on the branch it was seen on. */
  z.object({ type: z.literal('commit'), commit: z.string(), branch: z.string() }),
  /** A line of the reactions' or schedules' own log (`.team/…`), by its id. */
  z.object({ type: z.literal('log'), file: z.string(), id: z.string() }),
])
export type TimelineSource = z.infer<typeof timelineSourceSchema>

export const timelineEntrySchema = z.object({
  /** Stable across reads: the same record always gives the same id. */
  id: z.string().min(1).max(300),
  /** When it happened, seconds since the epoch. */
  at: z.number(),
  /** When it ended, for what lasts (a tool call, a model turn, a check run); null otherwise. */
  end: z.number().nullable(),
  kind: timelineKindSchema,
  /** The lane: the agent it belongs to (`user` for the person, `app` for the app itself). */
  agent: z.string(),
  /** One line for people: "alice → bob: the parser is done", "bash: npm test (exit 1)". */
  summary: z.string().max(500),
  source: timelineSourceSchema,
  /** Whether it went wrong: a failed tool call, a failed check, an error, a conflict. */
  failed: z.boolean(),

  // What some kinds carry. Absent where the kind has none.

  /** message: who it went to, and how far it got (delivered, pending, rejected). */
  to: z.string().optional(),
  delivery: z
    .object({
      state: z.enum(['delivered', 'pending', 'rejected']),
      /** When the recipient took it in (its transcript's inbox record); null while pending. */
      at: z.number().nullable(),
      /** The recipient's transcript record that holds it. */
      seq: z.number().int().min(1).nullable(),
    })
    .optional(),
  /** turn (and compaction): its tokens, and what they cost in dollars (null: unpriced model). */
  tokens: z
    .object({
      input: z.number().int().min(0),
      output: z.number().int().min(0),
      cacheRead: z.number().int().min(0),
      cacheWrite: z.number().int().min(0),
    })
    .optional(),
  usd: z.number().nullable().optional(),
  /** status: the agent's status from this moment (for replay's roster). */
  status: z.string().optional(),
  /**
   * status and budget: why, as data (`budget`, `round-cap`, `stopped`…; roster.ts's causes);
   * check and reaction: the reaction's kind (`check`, `nudge`, `escalate`, `conflict`, `fold`);
   * schedule: the run's event (`started`, `capped`, `finished`, `skipped`, `waiting`).
   */
  cause: z.string().optional(),
  /** task: the task as it stood after this event (for replay's board). */
  task: z
    .object({
      id: z.string(),
      subject: z.string(),
      status: z.enum(TASK_STATUSES),
      owner: z.string().nullable(),
    })
    .optional(),
  /** tool: the tool's name. */
  tool: z.string().optional(),
})
export type TimelineEntry = z.infer<typeof timelineEntrySchema>

export const TIMELINE_LIMIT_MAX = 250_000

export const timelineQuerySchema = z
  .object({
    /** Only entries at or after this time… */
    since: seconds.optional(),
    /** …and before this one. */
    until: seconds.optional(),
    /** Only these agents' lanes. */
    agents: z.array(agentName).max(200).optional(),
    kinds: z.array(timelineKindSchema).max(TIMELINE_KINDS.length).optional(),
    /** At most this many entries, the newest kept; `truncated` says when more matched. */
    limit: z.number().int().min(1).max(TIMELINE_LIMIT_MAX).optional(),
  })
  .strict()
export type TimelineQuery = z.infer<typeof timelineQuerySchema>

export const timelineSchema = z.object({
  /** Oldest first; ties keep the order the records were written in. */
  entries: z.array(timelineEntrySchema),
  /** Every lane that has entries in the range, the lead first, then by name. */
  agents: z.array(z.string()),
  /** The first and last moments of the whole team's records (null with none). */
  span: z.object({ start: z.number(), end: z.number() }).nullable(),
  truncated: z.boolean(),
  /** Records that could not be read (a torn or hostile line), each with where and why. */
  problems: z.array(z.string()),
})
export type Timeline = z.infer<typeof timelineSchema>

/** "While you were away": what happened since the person last looked. */
export const awayDigestSchema = z.object({
  /** Since when (the person's last look, or what was asked). */
  since: z.number(),
  /** The person's last look at this team, as the app recorded it; null before the first. */
  lastLook: z.number().nullable().optional(),
  until: z.number(),
  /** Tasks done, and agents that finished their work, in one line each. */
  finished: z.array(z.object({ agent: z.string(), summary: z.string(), entryId: z.string() })),
  /** Errors, failed checks, conflicts, stops at a cap. */
  failed: z.array(z.object({ agent: z.string(), summary: z.string(), entryId: z.string() })),
  /** What waits on the person now (the Needs-you queue's pending entries). */
  waiting: z.array(z.object({ agent: z.string(), summary: z.string(), id: z.string() })),
  /** What the team spent in the range. */
  usd: z.number(),
  tokens: z.number().int().min(0),
  /** Entries in the range, by kind. */
  counts: z.record(z.string(), z.number().int().min(0)),
})
export type AwayDigest = z.infer<typeof awayDigestSchema>
