/**
 * Prompt-cache breakpoints for one request. A persistent agent sends the same growing
 * conversation on every call; with `cache_control` marks the endpoint reads the part it has seen
 * from its cache (billed at a tenth) instead of reading it again.
 *
 * Four marks, the most the API allows: the tools, the system prompt, the end of the previous
 * user turn (the end of the prompt the last call wrote to the cache, so this call reads it) and
 * the end of the last user turn (written now, read by the next call). The mark on the previous
 * turn matters on endpoints that do not look back from a mark for an earlier cache entry.
 */
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as ApiTool,
} from '@anthropic-ai/sdk/resources/messages'

const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' }

/** The API's limit on `cache_control` marks in one request. */
export const MAX_BREAKPOINTS = 4

export interface CacheableRequest {
  readonly system: string
  readonly messages: readonly MessageParam[]
  readonly tools: readonly ApiTool[]
}

/**
 * The request's system, tools and messages with the marks set. Nothing passed in is changed
 * (a marked block is a copy): the caller's tools and conversation may share objects with the
 * transcript, and a mark left behind would move with the next call and add up past the limit.
 */
export function withCacheBreakpoints(request: CacheableRequest): {
  system: TextBlockParam[]
  tools: ApiTool[]
  messages: MessageParam[]
} {
  const tools = request.tools.map((tool, index) =>
    index === request.tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool,
  )
  const system: TextBlockParam[] =
    request.system === '' ? [] : [{ type: 'text', text: request.system, cache_control: EPHEMERAL }]
  const messages = [...request.messages]
  const userTurns = messages
    .map((message, index) => (message.role === 'user' ? index : -1))
    .filter((index) => index >= 0)
    .slice(-2)
  for (const index of userTurns) messages[index] = markLastBlock(messages[index] as MessageParam)
  return { system, tools, messages }
}

/**
 * The same request without any mark, for the benchmark's reference run only (the endpoint's
 * `promptCaching: false`): the system prompt stays a text block, so the prompt is the same
 * tokens as the marked one and only the caching differs.
 */
export function withoutCacheBreakpoints(request: CacheableRequest): {
  system: TextBlockParam[]
  tools: ApiTool[]
  messages: MessageParam[]
} {
  return {
    system: request.system === '' ? [] : [{ type: 'text', text: request.system }],
    tools: [...request.tools],
    messages: [...request.messages],
  }
}

function markLastBlock(message: MessageParam): MessageParam {
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : [...message.content]
  const last = blocks.at(-1)
  if (last === undefined || !acceptsCacheControl(last)) return message
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as ContentBlockParam
  return { ...message, content: blocks } as MessageParam
}

/** Thinking blocks cannot carry a mark; every block a user turn holds here can. */
function acceptsCacheControl(block: ContentBlockParam): boolean {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking'
}
