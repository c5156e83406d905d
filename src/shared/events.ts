import { z } from 'zod'
import { mcpStateSchema } from './mcp'
import { trustViewSchema } from './trust'
import { needsYouEntrySchema } from './needs-you'
import { mailMessageSchema } from './messages'
import { memberStatusSchema, statusCauseSchema, type StatusFacts } from './roster'
import { taskBoardSchema } from './tasks'
import { transcriptRecordSchema, usageSchema } from './transcript'
import { positionSchema } from './position'
import { budgetSchema } from './budget'
import { engineSchema } from './engine'
import { reactionsViewSchema } from './reactions'

/** What happened to an inbox; `consumed` is its consumer's commit, never new mail. */
export const inboxChangeSchema = z.enum(['added', 'appended', 'removed', 'consumed'])
export type InboxChange = z.infer<typeof inboxChangeSchema>

/** The most pending messages an inbox event counts: a count stops there (shown as that many). */
export const PENDING_COUNT_LIMIT = 1000

/**
 * The one event vocabulary from the runtime to every observer (UI, CLI, tests): a `type`-tagged
 * union, parsed on arrival, folded by pure reducers.
 */
const memberSchema = z.looseObject({
  name: z.string(),
  role: z.string(),
  status: memberStatusSchema,
  /** What runs its turns (absent: builtin); config.json's rule, so a valid roster passes. */
  engine: engineSchema.optional(),
})

/** A protocol request as the UI sees it (`.team/protocols.json` holds more). */
export const protocolRequestViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['shutdown', 'plan']),
  /** Who asked: the requester of a shutdown, the teammate submitting a plan. */
  from: z.string(),
  /** Who must answer: the teammate asked to shut down, the lead reviewing a plan. */
  to: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  plan: z.string().nullable(),
  /** The answer's reason (shutdown) or feedback (plan). */
  reason: z.string().nullable(),
  /** A settled shutdown request whose teammate was spawned again: it no longer applies. */
  closed: z.boolean().optional(),
})
export type ProtocolRequestView = z.infer<typeof protocolRequestViewSchema>

export const teamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('agent-status-changed'),
    name: z.string(),
    previous: memberStatusSchema,
    status: memberStatusSchema,
    /** Why, in words for the person; nothing decides anything from them. */
    reason: z.string(),
    /** Why it has the status, as data (a pause, a retry, a stop); null when nothing to say. */
    cause: statusCauseSchema.nullable(),
    /** The failure's code (status `error`; `auth`: the endpoint refused the key); else null. */
    error_code: z.string().nullable(),
  }),
  z.object({
    type: z.literal('roster-changed'),
    team_name: z.string(),
    members: z.array(memberSchema),
    /** The lead's own model and thinking (config.json's `lead`); absent: none of its own. */
    lead: z
      .looseObject({ model: z.string().optional(), thinking: z.number().nullable().optional() })
      .optional(),
  }),
  z.object({
    type: z.literal('roster-invalid'),
    message: z.string(),
    file: z.string(),
    line: z.number(),
    column: z.number(),
  }),
  /**
   * An inbox changed: its file was added, appended to or removed (by anyone), or its consumer
   * took or set aside what it read (`consumed`). `pending` is how many of its messages wait to
   * be delivered, counted after the change (at most PENDING_COUNT_LIMIT).
   */
  z.object({
    type: z.literal('inbox-changed'),
    name: z.string(),
    change: inboxChangeSchema,
    pending: z.number().int().min(0),
  }),
  z.object({ type: z.literal('message-sent'), message: mailMessageSchema }),
  z.object({
    type: z.literal('message-rejected'),
    inbox: z.string(),
    position: positionSchema,
    reason: z.string(),
  }),
  z.object({ type: z.literal('message-delivered'), agent: z.string(), ids: z.array(z.string()) }),
  z.object({ type: z.literal('text-delta'), agent: z.string(), text: z.string() }),
  z.object({
    type: z.literal('tool-call-started'),
    agent: z.string(),
    id: z.string(),
    name: z.string(),
  }),
  z.object({
    type: z.literal('tool-input-delta'),
    agent: z.string(),
    id: z.string(),
    partial_json: z.string(),
  }),
  z.object({
    type: z.literal('tool-call-finished'),
    agent: z.string(),
    id: z.string(),
    name: z.string(),
    content: z.string(),
    is_error: z.boolean(),
  }),
  z.object({
    type: z.literal('transcript-appended'),
    agent: z.string(),
    record: transcriptRecordSchema,
  }),
  z.object({
    type: z.literal('usage-reported'),
    agent: z.string(),
    /** The model that answered: cost is priced per model. */
    model: z.string(),
    usage: usageSchema,
    total: usageSchema,
  }),
  z.object({
    type: z.literal('agent-error'),
    agent: z.string(),
    code: z.string(),
    message: z.string(),
  }),
  /** A partial model turn was thrown away (a stream error, a drop, a retry): clear what streamed. */
  z.object({ type: z.literal('stream-reset'), agent: z.string(), reason: z.string() }),
  /** A problem for the whole team (the endpoint refused the key), reported once. */
  z.object({ type: z.literal('team-alert'), code: z.string(), message: z.string() }),
  z.object({ type: z.literal('team-alert-cleared'), code: z.string() }),
  /** The team's MCP servers: each server's state, its tools and stderr tail. */
  z.object({ type: z.literal('mcp-changed'), state: mcpStateSchema }),
  /**
   * Whether the person trusts what the workspace grants, and what it grants: the trust began or
   * stopped holding, the grants changed, or the person answered.
   */
  z.object({ type: z.literal('trust-changed'), trust: trustViewSchema }),
  z.object({
    type: z.literal('protocol-changed'),
    request: protocolRequestViewSchema,
  }),
  /**
   * A budget was set (`name` null: the team's), from the window, the CLI or a control line:
   * the budget as it now applies.
   */
  z.object({
    type: z.literal('budget-changed'),
    name: z.string().nullable(),
    budget: budgetSchema,
  }),
  /** The task board changed (by an agent, the person, or another program): all of it. */
  z.object({ type: z.literal('tasks-changed'), board: taskBoardSchema }),
  /** An agent with auto-claim on took a task by itself. */
  z.object({
    type: z.literal('task-auto-claimed'),
    agent: z.string(),
    task: z.string(),
    subject: z.string(),
  }),
  /** An entry of the Needs-you queue was added or changed (answered, cancelled, resolved). */
  z.object({ type: z.literal('needs-you-changed'), entry: needsYouEntrySchema }),
  /**
   * Git's branches moved in the workspace's repository (a commit, a merge, a branch made or
   * removed, by anyone): the teammates' branch lines are to be read again.
   */
  z.object({ type: z.literal('branches-changed') }),
  /**
   * The team's reactions changed: a check began or ended, a reaction was recorded, or the
   * person changed the settings. The whole view, as `getReactions` answers it.
   */
  z.object({ type: z.literal('reactions-changed'), reactions: reactionsViewSchema }),
])
export type TeamEvent = z.infer<typeof teamEventSchema>
export type TeamEventType = TeamEvent['type']
export type TeamEventOf<T extends TeamEventType> = Extract<TeamEvent, { type: T }>

/**
 * The builders of the events raised in several places, so each is built one way. `agent` is
 * `'team'` for a problem no single agent has (the roster or the control file).
 */
export function agentErrorEvent(
  agent: string,
  code: string,
  message: string,
): TeamEventOf<'agent-error'> {
  return { type: 'agent-error', agent, code, message }
}

/** Raised by the watcher of git's refs once per burst of ref writes. */
export function branchesChangedEvent(): TeamEventOf<'branches-changed'> {
  return { type: 'branches-changed' }
}

/** A status change, with what it means as data (`facts`; none given: nothing to say). */
export function statusChangedEvent(
  change: Pick<TeamEventOf<'agent-status-changed'>, 'name' | 'previous' | 'status' | 'reason'>,
  facts: Partial<StatusFacts> = {},
): TeamEventOf<'agent-status-changed'> {
  return {
    type: 'agent-status-changed',
    ...change,
    cause: facts.cause ?? null,
    error_code: facts.errorCode ?? null,
  }
}
