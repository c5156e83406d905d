import type { ModelRequest, Reply } from '../script'

const NAMED_TOOL = /\b(mcp__[A-Za-z0-9_-]+?__[A-Za-z0-9_-]+)\b(?:\s+(?:with\s+)?(\{[\s\S]*\}))?/

/**
 * "Use mcp__notes__echo with {"text": "hi"}": the offline model calls an MCP tool the person
 * names, with the JSON input given (else an empty one), so that a server's tools can be tried
 * without a key. A tool the request does not offer is answered with why it may be missing.
 */
export function mcpToolRequest(request: ModelRequest, texts: readonly string[]): Reply | null {
  const match = texts.map((text) => NAMED_TOOL.exec(text)).find((found) => found !== null)
  if (!match) return null
  const name = match[1] ?? ''
  const offered = (request.tools ?? []).some(
    (tool) => (tool as { name?: unknown } | null)?.name === name,
  )
  if (!offered)
    return {
      content: [
        {
          type: 'text',
          text: `I have no tool ${name}: its MCP server may be off, not trusted yet, still starting, or not given to me.`,
        },
      ],
    }
  let input: Record<string, unknown> = {}
  try {
    const parsed: unknown = match[2] ? JSON.parse(match[2]) : {}
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      input = parsed as Record<string, unknown>
  } catch {
    // Not JSON: the tool gets an empty input and says what it misses.
  }
  return {
    content: [
      { type: 'text', text: `I'll call ${name}.` },
      { type: 'tool_use', name, input },
    ],
  }
}
