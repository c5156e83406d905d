import { z } from 'zod'
import { TeamError } from './errors'

/**
 * Permission profiles: which tools an agent is offered, and which of its actions wait for the
 * person. Built-in profiles are fixed here; custom ones live in `.team/profiles.json`. Every way
 * in (the spawn dialog, `spawn_teammate`, the CLI, the file) is checked by these schemas.
 */

/** Tools a profile may grant. read_inbox and the s10 protocol tools are always given. */
export const PROFILE_TOOLS = [
  'bash',
  'read_file',
  'write_file',
  'edit_file',
  'grep',
  'glob',
  'send_message',
  'broadcast',
  'spawn_teammate',
  'list_teammates',
  'ask_user',
] as const
export type ProfileTool = (typeof PROFILE_TOOLS)[number]

/**
 * Tools no profile takes away: the inbox and the s10 handshakes (a teammate that could not
 * answer a shutdown request, or submit its plan, would break the protocols), and the task
 * board's, which change `.team/tasks/`, never the workspace (a reviewer claims its review too).
 */
export const ALWAYS_OFFERED_TOOLS: ReadonlySet<string> = new Set([
  'read_inbox',
  'shutdown_request',
  'plan_approval',
  'shutdown_response',
  'submit_plan',
  'list_tasks',
  'create_task',
  'update_task',
  'claim_task',
  'complete_task',
])

/** The prefix of the tools MCP servers bring (`mcp__<server>__<tool>`). */
export const MCP_TOOL_PREFIX = 'mcp__'

/** Tools that change files or run commands. */
export const MUTATING_PROFILE_TOOLS: ReadonlySet<string> = new Set([
  'bash',
  'write_file',
  'edit_file',
])

/**
 * Tools that never change an agent's folder: they read it, or write only `.team/`, which
 * checkpoints leave out. After a model call whose tool calls were all of these, the next
 * checkpoint repeats the last one instead of reading the folder again (undo). A list of the
 * known ones, so that a new tool counts as one that may change files until it is added here.
 */
export const FOLDER_READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'grep',
  'glob',
  'read_inbox',
  'list_teammates',
  'send_message',
  'broadcast',
  'ask_user',
  'list_tasks',
])

/**
 * Whether the plan gate and ask mode hold `tool`: bash, the file writes, and every MCP tool.
 * What an MCP tool does is unknown to the app (a server's `readOnlyHint` is the server's claim,
 * not proof), so it counts as one that changes things.
 */
export function mayChangeThings(tool: string): boolean {
  return MUTATING_PROFILE_TOOLS.has(tool) || tool.startsWith(MCP_TOOL_PREFIX)
}

/**
 * auto: no approvals; ask: bash, MCP tools, and file writes outside the agent's own folder (its
 * worktree), wait for the person; plan-first: those tools are refused until its plan is approved
 * (s10).
 */
export const APPROVAL_MODES = ['auto', 'ask', 'plan-first'] as const
export const approvalModeSchema = z.enum(APPROVAL_MODES, {
  message: `is not an approval mode (${APPROVAL_MODES.join(', ')})`,
})
export type ApprovalMode = z.infer<typeof approvalModeSchema>

export const PROFILE_NAME_RULE =
  'a profile name is 1-32 characters: lowercase letters, digits, "-" and "_", starting with a letter'
export const profileNameSchema = z
  .string({ message: `is not a profile name (${PROFILE_NAME_RULE})` })
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, { message: `is not a profile name (${PROFILE_NAME_RULE})` })

export const profileSchema = z
  .object({
    name: profileNameSchema,
    description: z.string().max(500).default(''),
    tools: z.array(z.enum(PROFILE_TOOLS)).max(PROFILE_TOOLS.length),
    /** The approval mode of an agent with this profile, unless its own is set. */
    approval: approvalModeSchema,
    /**
     * Whether the team's MCP servers' tools are offered (which servers: the agent's own choice
     * at spawn). They act outside the workspace, so a read-only profile goes without.
     */
    mcp: z.boolean().default(true),
  })
  .strict()
export type Profile = z.infer<typeof profileSchema>

const MESSAGING: ProfileTool[] = ['send_message', 'ask_user']

export const BUILT_IN_PROFILES: readonly Profile[] = [
  {
    name: 'reviewer',
    description: 'Reads and searches the workspace; changes nothing.',
    tools: ['read_file', 'grep', 'glob', ...MESSAGING],
    approval: 'auto',
    mcp: false,
  },
  {
    name: 'tester',
    description: 'Runs commands, reads and writes files.',
    tools: ['bash', 'read_file', 'write_file', 'grep', 'glob', ...MESSAGING],
    approval: 'auto',
    mcp: true,
  },
  {
    name: 'implementer',
    description: 'Every file tool and bash.',
    tools: ['bash', 'read_file', 'write_file', 'edit_file', 'grep', 'glob', ...MESSAGING],
    approval: 'auto',
    mcp: true,
  },
  {
    name: 'lead',
    description: "The lead's tools: files, bash, spawning and messaging the team.",
    tools: [...PROFILE_TOOLS],
    approval: 'auto',
    mcp: true,
  },
]

/** A teammate without a profile of its own (every roster written before profiles). */
export const DEFAULT_TEAMMATE_PROFILE = 'implementer'
export const DEFAULT_LEAD_PROFILE = 'lead'

export function isBuiltInProfile(name: string): boolean {
  return BUILT_IN_PROFILES.some((profile) => profile.name === name)
}

/** What the UI and the CLI show of every profile, built-in ones first. */
export const profileViewSchema = profileSchema.extend({ builtIn: z.boolean() })
export type ProfileView = z.infer<typeof profileViewSchema>

/** Throws `invalid-argument` with the rule for a profile name or mode that breaks it. */
export function assertProfileChoice(choice: { profile?: unknown; approval?: unknown }): void {
  if (choice.profile !== undefined && choice.profile !== null) {
    const checked = profileNameSchema.safeParse(choice.profile)
    if (!checked.success)
      throw new TeamError(
        'invalid-argument',
        `Invalid profile ${JSON.stringify(String(choice.profile).slice(0, 40))}: ${PROFILE_NAME_RULE}.`,
      )
  }
  if (choice.approval !== undefined && choice.approval !== null) {
    if (!approvalModeSchema.safeParse(choice.approval).success)
      throw new TeamError(
        'invalid-argument',
        `Invalid approval mode ${JSON.stringify(String(choice.approval).slice(0, 40))}: use ${APPROVAL_MODES.join(', ')}.`,
      )
  }
}
