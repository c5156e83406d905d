import { z } from 'zod'
import { engineSchema, type EngineName } from './engine'
import { mcpServerNameSchema } from './mcp'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from './json-limits'
import { modelIdSchema, thinkingBudgetSchema } from './model-choice'
import { NAME_RULE, isValidName } from './names'
import { usdLimitSchema } from './budget'
import { branchActionSchema, type BranchAction } from './worktree'
import { NEEDS_YOU_DECISIONS } from './needs-you'
import { approvalModeSchema, profileNameSchema, type ApprovalMode } from './profiles'
import { undoTargetSchema, type UndoTarget } from './undo'

/**
 * `.team/control.jsonl`: commands other processes append for a running team (`agent-teams stop`,
 * `resume`, `budget`, `shutdown`, `plan`, `spawn`, `model`, `answer`, `profile`, `run-schedule`). Any program can append anything there, so every line is judged here, as
 * data: a valid command, or a refusal with its reason, never a throw.
 */

/** The longest control line read; a real command is under 200 bytes, a spawn's prompt aside. */
export const MAX_CONTROL_LINE_BYTES = 64 * 1024

const agentName = z.string().refine(isValidName, { message: `not an agent name (${NAME_RULE})` })
/** A budget limit: a positive whole number, or null for none. */
const limit = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable()
/** A protocol request's id, as the runtime made it. */
const requestId = z.string().min(1).max(128)
/** Written by the CLI beside every command; read for nothing but allowed. */
const stamps = { v: z.literal(1).optional(), at: z.number().optional() }

export const controlCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.enum(['stop', 'resume']), name: agentName, ...stamps }),
  z.object({
    command: z.literal('budget'),
    /** null: the team's budget. */
    name: agentName.nullable(),
    tokens: limit,
    rounds: limit,
    /** Dollars; absent in lines written before dollar budgets (then left as it is). */
    usd: usdLimitSchema.optional(),
    ...stamps,
  }),
  /** The person's protocol answers from the CLI: the runtime records them, then notifies. */
  z.object({ command: z.literal('shutdown'), name: agentName, request_id: requestId, ...stamps }),
  z.object({
    command: z.literal('plan'),
    request_id: requestId,
    approve: z.boolean(),
    feedback: z.string().optional(),
    ...stamps,
  }),
  /** The person spawns a teammate from the CLI (the dialog's fields). */
  z.object({
    command: z.literal('spawn'),
    name: agentName,
    role: z.string().min(1).max(200),
    prompt: z.string().min(1),
    model: modelIdSchema.nullable().optional(),
    thinking: thinkingBudgetSchema.nullable().optional(),
    plan_first: z.boolean().optional(),
    /** Its own git worktree; absent: the team's default. */
    worktree: z.boolean().optional(),
    auto_claim: z.boolean().optional(),
    /** The MCP servers it may use; null: every one; absent: as it was. */
    mcp_servers: z.array(mcpServerNameSchema).max(100).nullable().optional(),
    profile: profileNameSchema.optional(),
    approval: approvalModeSchema.optional(),
    /** What runs its turns; absent: builtin for a new member, its own for a re-spawn. */
    engine: engineSchema.optional(),
    ...stamps,
  }),
  /** The person takes a teammate off the team; `branch` says what becomes of its branch. */
  z.object({
    command: z.literal('remove'),
    name: agentName,
    branch: branchActionSchema.optional(),
    ...stamps,
  }),
  /** The person answers a Needs-you entry from the CLI (approve, deny, answer a question). */
  z.object({
    command: z.literal('answer'),
    id: z.string().min(1).max(128),
    decision: z.enum(NEEDS_YOU_DECISIONS),
    text: z.string().max(60_000).optional(),
    ...stamps,
  }),
  /** An agent's permission profile or approval mode; absent: unchanged, null: the default. */
  z.object({
    command: z.literal('profile'),
    name: agentName,
    profile: profileNameSchema.nullable().optional(),
    approval: approvalModeSchema.nullable().optional(),
    ...stamps,
  }),
  /**
   * The person's undo (or redo, `redo_of`) from the CLI: the running team applies the plan the
   * CLI showed (`plan_id`) and writes its journal as `undo_id` (undo/undo-journal.ts).
   */
  z.object({
    command: z.literal('undo'),
    name: z.string().refine((name) => name === 'lead' || isValidName(name), {
      message: `not an agent name (${NAME_RULE})`,
    }),
    undo_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
    target: undoTargetSchema,
    plan_id: z.string().min(1).max(200),
    overwrite: z.array(z.string().max(4096)).max(100_000).optional(),
    reason: z.string().max(2000).optional(),
    redo_of: z.string().min(1).max(200).optional(),
  }),
  /** The person runs a schedule now (`agent-teams schedule run-now`). */
  z.object({
    command: z.literal('run-schedule'),
    schedule: z.string().refine(isValidName, { message: `not a schedule name (${NAME_RULE})` }),
    ...stamps,
  }),
  /** An agent's model and thinking from its next turn; absent: unchanged, null: the default. */
  z.object({
    command: z.literal('model'),
    name: agentName,
    model: modelIdSchema.nullable().optional(),
    thinking: thinkingBudgetSchema.nullable().optional(),
    ...stamps,
  }),
])
type ControlLine = z.infer<typeof controlCommandSchema>
export type ControlCommand =
  | { readonly command: 'stop' | 'resume'; readonly name: string }
  | {
      readonly command: 'budget'
      readonly name: string | null
      readonly tokens: number | null
      readonly rounds: number | null
      /** Absent: the dollar limit stays as it is. */
      readonly usd?: number | null
    }
  | { readonly command: 'shutdown'; readonly name: string; readonly request_id: string }
  | {
      readonly command: 'plan'
      readonly request_id: string
      readonly approve: boolean
      readonly feedback: string
    }
  | {
      readonly command: 'spawn'
      readonly name: string
      readonly role: string
      readonly prompt: string
      readonly model?: string | null
      readonly thinking?: number | null
      readonly planFirst: boolean
      readonly worktree?: boolean
      readonly autoClaim?: boolean
      readonly mcpServers?: readonly string[] | null
      readonly profile?: string
      readonly approval?: ApprovalMode
      readonly engine?: EngineName
    }
  | {
      readonly command: 'answer'
      readonly id: string
      readonly decision: (typeof NEEDS_YOU_DECISIONS)[number]
      readonly text?: string
    }
  | {
      readonly command: 'profile'
      readonly name: string
      readonly profile?: string | null
      readonly approval?: ApprovalMode | null
    }
  | { readonly command: 'remove'; readonly name: string; readonly branch?: BranchAction }
  | { readonly command: 'run-schedule'; readonly schedule: string }
  | {
      readonly command: 'undo'
      readonly name: string
      readonly undoId: string
      readonly target: UndoTarget
      readonly planId: string
      readonly overwrite?: readonly string[]
      readonly reason?: string
      readonly redoOf?: string
    }
  | {
      readonly command: 'model'
      readonly name: string
      readonly model?: string | null
      readonly thinking?: number | null
    }

export type ControlVerdict =
  | { readonly ok: true; readonly command: ControlCommand }
  | { readonly ok: false; readonly reason: string }

/** Judges one line of control.jsonl (without its newline). Never throws. */
export function parseControlLine(text: string): ControlVerdict {
  if (text.length > MAX_CONTROL_LINE_BYTES)
    return {
      ok: false,
      reason: `line of ${text.length} characters is over the limit of ${MAX_CONTROL_LINE_BYTES}`,
    }
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH))
    return { ok: false, reason: `nested more than ${MAX_JSON_DEPTH} levels deep` }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` }
  }
  const parsed = controlCommandSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `field "${issue.path.join('.')}": ` : ''
    return { ok: false, reason: `not a control command: ${where}${issue?.message ?? 'invalid'}` }
  }
  return { ok: true, command: withoutStamps(parsed.data) }
}

function withoutStamps(line: ControlLine): ControlCommand {
  switch (line.command) {
    case 'budget':
      return {
        command: 'budget',
        name: line.name,
        tokens: line.tokens,
        rounds: line.rounds,
        ...(line.usd === undefined ? {} : { usd: line.usd }),
      }
    case 'shutdown':
      return { command: 'shutdown', name: line.name, request_id: line.request_id }
    case 'plan':
      return {
        command: 'plan',
        request_id: line.request_id,
        approve: line.approve,
        feedback: line.feedback ?? '',
      }
    case 'spawn':
      return {
        command: 'spawn',
        name: line.name,
        role: line.role,
        prompt: line.prompt,
        ...choiceOf(line),
        planFirst: line.plan_first === true,
        ...(line.worktree === undefined ? {} : { worktree: line.worktree }),
        ...(line.auto_claim === undefined ? {} : { autoClaim: line.auto_claim }),
        ...(line.mcp_servers === undefined ? {} : { mcpServers: line.mcp_servers }),
        ...(line.profile === undefined ? {} : { profile: line.profile }),
        ...(line.approval === undefined ? {} : { approval: line.approval }),
        ...(line.engine === undefined ? {} : { engine: line.engine }),
      }
    case 'remove':
      return {
        command: 'remove',
        name: line.name,
        ...(line.branch === undefined ? {} : { branch: line.branch }),
      }
    case 'answer':
      return {
        command: 'answer',
        id: line.id,
        decision: line.decision,
        ...(line.text === undefined ? {} : { text: line.text }),
      }
    case 'profile':
      return {
        command: 'profile',
        name: line.name,
        ...(line.profile === undefined ? {} : { profile: line.profile }),
        ...(line.approval === undefined ? {} : { approval: line.approval }),
      }
    case 'model':
      return { command: 'model', name: line.name, ...choiceOf(line) }
    case 'undo':
      return {
        command: 'undo',
        name: line.name,
        undoId: line.undo_id,
        target: line.target,
        planId: line.plan_id,
        ...(line.overwrite === undefined ? {} : { overwrite: line.overwrite }),
        ...(line.reason === undefined ? {} : { reason: line.reason }),
        ...(line.redo_of === undefined ? {} : { redoOf: line.redo_of }),
      }
    case 'run-schedule':
      return { command: 'run-schedule', schedule: line.schedule }
    default:
      return { command: line.command, name: line.name }
  }
}

/** The model fields a line gives, leaving out the ones it does not (they stay as they are). */
function choiceOf(line: { model?: string | null; thinking?: number | null }): {
  model?: string | null
  thinking?: number | null
} {
  return {
    ...(line.model !== undefined ? { model: line.model } : {}),
    ...(line.thinking !== undefined ? { thinking: line.thinking } : {}),
  }
}
