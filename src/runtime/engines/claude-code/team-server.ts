import type * as ClaudeAgentSdk from '@anthropic-ai/claude-agent-sdk'
import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'
import { mayChangeThings } from '../../../shared/profiles'
import type { AgentGuard } from '../../agents/agent-types'
import type { Tool, ToolContext } from '../../tools/types'
import { READ_INBOX_DEFINITION } from '../../tools/team-tools'
import { TEAM_SERVER } from './tool-names'

type Sdk = typeof ClaudeAgentSdk

/**
 * The team's tools as an in-process MCP server of the session: send_message, broadcast,
 * list_teammates, the board's, the protocols', and read_inbox. They run here, in the app, with
 * `from` and the caller set by the runtime (`context.agent`), never by what the model sends.
 */
export function teamServer(
  sdk: Sdk,
  tools: readonly Tool[],
  guard: AgentGuard,
  context: () => Promise<ToolContext>,
  readInbox: () => Promise<string>,
): McpSdkServerConfigWithInstance {
  const served = tools.flatMap((tool) => {
    const input = tool.input
    if (!(input instanceof z.ZodObject)) return []
    const name = tool.definition.name
    return [
      sdk.tool(name, tool.definition.description, input.shape, async (args) => {
        // Decided here as well as in canUseTool: the sandboxed process could ask for a call
        // without going through its own permission check (a forged request on its stdout).
        const refused = !guard.toolPolicy.offered(name)
          ? `${name} is not among the tools of your profile.`
          : mayChangeThings(name)
            ? guard.planGate()
            : null
        if (refused !== null)
          return { content: [{ type: 'text' as const, text: refused }], isError: true }
        const outcome = await tool.run(args, await context())
        return {
          content: [{ type: 'text' as const, text: outcome.content }],
          isError: outcome.isError,
        }
      }),
    ]
  })
  const inbox = sdk.tool(
    READ_INBOX_DEFINITION.name,
    READ_INBOX_DEFINITION.description,
    {},
    async () => ({
      content: [{ type: 'text' as const, text: await readInbox() }],
    }),
  )
  return sdk.createSdkMcpServer({ name: TEAM_SERVER, version: '1.0.0', tools: [...served, inbox] })
}
