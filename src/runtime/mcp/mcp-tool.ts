import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { mcpToolName } from '../../shared/mcp'
import type { Tool, ToolDefinition, ToolImage, ToolOutcome } from '../tools/types'
import { redact, type McpConnection, type McpToolInfo } from './connection'

/** The API's rule for tool names; an MCP tool whose full name breaks it is left out. */
const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/
const DESCRIPTION_CHARS = 4_000
/** The API takes images up to 5 MB; a larger one is replaced by a note. */
const IMAGE_BASE64_CHARS = 5 * 1024 * 1024
const MAX_IMAGES = 8
const IMAGE_TYPES = new Set<string>(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** One tool of an MCP server as an agent's tool `mcp__<server>__<tool>`; null if unnameable. */
export function mcpTool(connection: McpConnection, info: McpToolInfo): Tool | null {
  const name = mcpToolName(connection.name, info.name)
  if (!API_TOOL_NAME.test(name)) return null
  const schema = info.inputSchema as Record<string, unknown>
  const definition: ToolDefinition = {
    name,
    description: `${(info.description ?? info.title ?? info.name).slice(0, DESCRIPTION_CHARS)} (MCP server "${connection.name}")`,
    // The server's JSON Schema as it sent it: the API takes the same dialect.
    input_schema: {
      ...schema,
      type: 'object',
      properties: (schema.properties as Record<string, unknown> | undefined) ?? {},
    },
  }
  return {
    definition,
    async run(input, context): Promise<ToolOutcome> {
      try {
        const outcome = toOutcome(
          await connection.call(info.name, input, context.signal, context.agent),
        )
        // A server that echoes its token must not put it in the transcript.
        return { ...outcome, content: redact(outcome.content, connection.secrets) }
      } catch (error) {
        return { content: failure(connection, info.name, error, context.signal), isError: true }
      }
    },
  }
}

/** A tool call's result as the model gets it: its text, its images, and is_error. */
export function toOutcome(result: CallToolResult): ToolOutcome {
  const texts: string[] = []
  const images: ToolImage[] = []
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        texts.push(block.text)
        break
      case 'image':
        if (!IMAGE_TYPES.has(block.mimeType))
          texts.push(`[an image of type ${block.mimeType}, which cannot be shown]`)
        else if (block.data.length > IMAGE_BASE64_CHARS)
          texts.push('[an image over 5 MB, left out]')
        else if (images.length >= MAX_IMAGES) texts.push('[more images, left out]')
        else
          images.push({ media_type: block.mimeType as ToolImage['media_type'], data: block.data })
        break
      case 'audio':
        texts.push(`[audio of type ${block.mimeType}, which cannot be passed on]`)
        break
      case 'resource_link':
        texts.push(`[resource ${block.uri}${block.name ? ` (${block.name})` : ''}]`)
        break
      case 'resource':
        texts.push(
          'text' in block.resource && typeof block.resource.text === 'string'
            ? block.resource.text
            : `[binary resource ${block.resource.uri}]`,
        )
        break
    }
  }
  if (texts.length === 0 && images.length === 0 && result.structuredContent !== undefined)
    texts.push(JSON.stringify(result.structuredContent))
  return {
    content: texts.join('\n'),
    isError: result.isError === true,
    ...(images.length > 0 ? { images } : {}),
  }
}

function failure(
  connection: McpConnection,
  tool: string,
  error: unknown,
  signal: AbortSignal,
): string {
  const where = `${mcpToolName(connection.name, tool)}`
  if (signal.aborted) return `${where} was stopped before it answered.`
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error
  if (cause instanceof McpError && cause.code === (ErrorCode.RequestTimeout as number))
    return `${where} did not answer in time, and was cancelled: try again later, or do without it.`
  const message = error instanceof Error ? error.message : String(error)
  return `${where} failed: ${message}`
}
