import { z } from 'zod'

/**
 * The "Needs you" queue: everything that waits on the person, across all agents. Tool approvals
 * and questions (`ask_user`) hold an agent until answered; plan approvals, budget pauses, errors
 * and stalls mirror a state the runtime records elsewhere and go away when it clears.
 */
export const NEEDS_YOU_KINDS = [
  'tool',
  'question',
  'plan',
  'pause',
  'error',
  'stall',
  /** A scheduled run reached its cap and stopped the team (entered for the lead). */
  'schedule',
] as const
export type NeedsYouKind = (typeof NEEDS_YOU_KINDS)[number]

export const NEEDS_YOU_STATUSES = [
  'pending',
  'approved',
  'denied',
  'answered',
  /** The agent was stopped (or its team closed) while it waited: the call did not run. */
  'cancelled',
  /** The state it mirrored cleared (the agent resumed, the plan was reviewed elsewhere). */
  'resolved',
] as const
export type NeedsYouStatus = (typeof NEEDS_YOU_STATUSES)[number]

const text = (max: number) => z.string().max(max)

export const needsYouEntrySchema = z.object({
  id: z.string().min(1).max(128),
  agent: z.string().min(1).max(64),
  kind: z.enum(NEEDS_YOU_KINDS),
  /** One line: "bash: npm test", "plan of alice", "budget pause". */
  summary: text(2000),
  /** What the person decides on: the exact command, the diff, the question, the plan, the reason. */
  detail: text(1_000_000),
  status: z.enum(NEEDS_YOU_STATUSES),
  created_at: z.number(),
  settled_at: z.number().nullable(),
  /** The person's words: a denial's reason, a question's answer. */
  answer: text(200_000).nullable(),
  /** The tool a `tool` entry holds, and its call's id (after a restart it is asked again). */
  tool: text(64).nullable().default(null),
  tool_use_id: text(128).nullable().default(null),
  /** What "approve always" would allow this agent from now on ("npm test", "src/**", an MCP tool). */
  pattern: text(2000).nullable().default(null),
  /** The protocol request a `plan` entry mirrors. */
  request_id: text(128).nullable().default(null),
})
export type NeedsYouEntry = z.infer<typeof needsYouEntrySchema>

/**
 * What an "approve always" rule covers: `bash` commands, `write` for write_file and edit_file
 * alike, or `mcp` for one MCP tool (added later: files written before it still parse).
 */
export const APPROVAL_RULE_TOOLS = ['bash', 'write', 'mcp'] as const

/** An "approve always" rule: this agent may run this tool for this pattern without asking. */
export const approvalRuleSchema = z.object({
  agent: z.string().min(1).max(64),
  tool: z.enum(APPROVAL_RULE_TOOLS),
  /** A command's leading words, a folder glob, or for `mcp` the exact tool name. */
  pattern: z.string().min(1).max(2000),
  created_at: z.number(),
})
export type ApprovalRule = z.infer<typeof approvalRuleSchema>

/** The person's answer to an entry, from the UI, the CLI or control.jsonl. */
export const NEEDS_YOU_DECISIONS = ['approve', 'approve-always', 'deny', 'answer'] as const
export const needsYouAnswerSchema = z
  .object({
    id: z.string().min(1).max(128),
    decision: z.enum(NEEDS_YOU_DECISIONS),
    /** A denial's reason (sent to the model), or a question's answer. */
    text: z.string().max(200_000).optional(),
  })
  .strict()
export type NeedsYouAnswer = z.infer<typeof needsYouAnswerSchema>

/** What each kind of entry lets the person do, for the UI, the CLI and the checks. */
export function decisionsFor(kind: NeedsYouKind): readonly NeedsYouAnswer['decision'][] {
  switch (kind) {
    case 'tool':
      return ['approve', 'approve-always', 'deny']
    case 'question':
      return ['answer', 'deny']
    case 'plan':
    case 'pause':
    case 'error':
    case 'stall':
    case 'schedule':
      return ['approve', 'deny']
  }
}

/** The words for "approve" and "deny" on each kind, as the person reads them. */
export function decisionWords(kind: NeedsYouKind): { approve: string; deny: string } {
  switch (kind) {
    case 'tool':
      return { approve: 'Approve', deny: 'Deny' }
    case 'question':
      return { approve: 'Answer', deny: 'Decline' }
    case 'plan':
      return { approve: 'Approve plan', deny: 'Reject plan' }
    case 'pause':
    case 'error':
    case 'stall':
      return { approve: 'Resume', deny: 'Dismiss' }
    case 'schedule':
      return { approve: 'Resume the lead', deny: 'Dismiss' }
  }
}

/** Pending entries newest first, grouped by agent (the agent with the newest entry first). */
export function newestFirstByAgent<E extends Pick<NeedsYouEntry, 'agent' | 'created_at'>>(
  list: readonly E[],
): E[] {
  const newest = [...list].sort((a, b) => b.created_at - a.created_at)
  const order = [...new Set(newest.map((entry) => entry.agent))]
  return order.flatMap((agent) => newest.filter((entry) => entry.agent === agent))
}
