import { z } from 'zod'
import { engineSchema, type EngineName } from '../../shared/engine'
import { MESSAGE_TYPES, type MailMessage } from '../../shared/messages'
import { thinkingBudgetSchema, type ModelChoiceChange } from '../../shared/model-choice'
import { APPROVAL_MODES, type ApprovalMode } from '../../shared/profiles'
import { defineTool, toolInputSchema, type Tool, type ToolDefinition } from './types'

/** What the messaging and team tools ask of the host. `from` is always the calling agent. */
export interface TeamOperations {
  spawn(
    request: {
      name: string
      role: string
      prompt: string
      worktree?: boolean
      autoClaim?: boolean
      mcpServers?: string[]
      profile?: string
      approval?: ApprovalMode
      engine?: EngineName
    } & ModelChoiceChange,
  ): Promise<string>
  listTeammates(): Promise<string>
  send(request: { from: string; to: string; content: string; type: string }): MailMessage
  broadcast(request: { from: string; content: string }): MailMessage[]
}

/**
 * spawn_teammate, list_teammates, send_message and broadcast. read_inbox is not here: it
 * consumes the agent's own inbox, so the agent runs it itself (see agents/tool-calls.ts).
 */
export function teamTools(team: TeamOperations): { lead: Tool[]; teammate: Tool[] } {
  const spawnTeammate = defineTool(
    {
      name: 'spawn_teammate',
      description:
        'Spawn a persistent teammate that runs in its own loop. An idle or shut-down name is re-used with its memory (and its model, unless given); it keeps its own profile, approvals, MCP servers and engine, which only the person changes.',
      // The model id is checked by the host's rules, whose errors name the rule.
      input: z.object({
        name: z.string(),
        role: z.string(),
        prompt: z.string(),
        model: z
          .string()
          .optional()
          .describe("Optional: the teammate's model id; default: the team's model."),
        thinking: thinkingBudgetSchema
          .optional()
          .describe('Optional: extended thinking with this budget of tokens; off by default.'),
        worktree: z
          .boolean()
          .optional()
          .describe(
            'Optional: its own git worktree on the branch team/<name> (default: yes when the workspace is a git repository, unless the team turned it off); false: it works in the shared workspace. A re-spawn keeps its worktree.',
          ),
        auto_claim: z
          .boolean()
          .optional()
          .describe(
            'Optional: when idle, the teammate claims the next unblocked pending task that fits its role by itself.',
          ),
        mcp_servers: z
          .array(z.string())
          .max(100)
          .optional()
          .describe(
            "Optional, for a new teammate: the MCP servers (by name) whose tools it gets; default: every server of the team's.",
          ),
        profile: z
          .string()
          .optional()
          .describe(
            'Optional, for a new teammate: its permission profile: reviewer (read-only), tester, implementer (default) or a custom one.',
          ),
        approval: z
          .enum(APPROVAL_MODES)
          .optional()
          .describe(
            "Optional, for a new teammate: auto (no approvals), ask (bash, writes and MCP tools wait for the person) or plan-first; default: the profile's.",
          ),
        engine: engineSchema
          .optional()
          .describe(
            "Optional, for a new teammate: what runs its turns: builtin (default: this app's own loop) or claude-code (a Claude Code session, when Claude Code is installed; larger requests). A re-spawn keeps its engine.",
          ),
      }),
    },
    async ({ auto_claim, mcp_servers, ...input }) =>
      team.spawn({
        ...input,
        ...(auto_claim === undefined ? {} : { autoClaim: auto_claim }),
        ...(mcp_servers === undefined ? {} : { mcpServers: mcp_servers }),
      }),
  )
  const listTeammates = defineTool(
    {
      name: 'list_teammates',
      description:
        'List all teammates with name, role, status, and for each one with a worktree its branch, how many files it changed and the files another teammate changes too.',
      input: z.object({}),
    },
    async () => team.listTeammates(),
  )
  const sendMessage = defineTool(
    {
      name: 'send_message',
      description: "Send a message to a teammate's inbox (or to the lead).",
      input: z.object({
        to: z.string(),
        content: z.string(),
        msg_type: z.enum(MESSAGE_TYPES).optional(),
      }),
    },
    async (input, context) => {
      const message = team.send({
        from: context.agent,
        to: input.to,
        content: input.content,
        type: input.msg_type ?? 'message',
      })
      return `Sent ${message.type} to ${message.to}`
    },
  )
  const broadcast = defineTool(
    {
      name: 'broadcast',
      description: 'Send a message to all teammates.',
      input: z.object({ content: z.string() }),
    },
    async (input, context) => {
      const messages = team.broadcast({ from: context.agent, content: input.content })
      return `Broadcast to ${messages.length} teammate${messages.length === 1 ? '' : 's'}`
    },
  )
  return {
    lead: [spawnTeammate, listTeammates, sendMessage, broadcast],
    teammate: [sendMessage],
  }
}

/** read_inbox as the model sees it; the agent answers it from its own inbox consumer. */
export const READ_INBOX_DEFINITION: ToolDefinition = {
  name: 'read_inbox',
  description: 'Read and drain your inbox.',
  input_schema: toolInputSchema(z.object({})),
}
