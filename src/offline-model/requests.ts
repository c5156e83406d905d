/**
 * Reading and validating the offline model server's requests: the body's shape, and the rules
 * the real Messages API enforces that an agent runtime can break (first role, alternation,
 * empty messages, tool_use answered by tool_result in the very next message).
 *
 * Error messages follow the real API's wording, so a test failure reads like production's.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { ModelRequest } from './script'

/** A request the server answers with an error before the script sees it. */
export class RequestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
  ) {
    super(message)
    this.name = 'RequestRefusal'
  }
}

type Block = Record<string, unknown> & { type: string }

function refuse(message: string): never {
  throw new RequestRefusal(400, 'invalid_request_error', message)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Parses and checks a Messages API request body; throws a RequestRefusal (400) if invalid. */
export function parseModelRequest(bodyText: string): ModelRequest {
  let value: unknown
  try {
    value = JSON.parse(bodyText)
  } catch (error) {
    refuse(`invalid JSON body: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!isRecord(value)) refuse('body: Input should be a JSON object')
  const maxTokens = value.max_tokens
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    refuse('max_tokens: Input should be a positive integer')
  }
  if (value.model !== undefined && typeof value.model !== 'string')
    refuse('model: Input should be a valid string')
  if (value.tools !== undefined && !Array.isArray(value.tools))
    refuse('tools: Input should be a valid list')
  if (Array.isArray(value.tools)) value.tools.forEach(validateTool)
  if (!Array.isArray(value.messages)) refuse('messages: Input should be a valid list')
  validateConversation(value.messages)
  return value as ModelRequest
}

/**
 * A custom tool as the API checks it: a name and an object JSON Schema for its input, so that a
 * tool schema derived wrongly fails here as it would in production. Server tools (a `type` such
 * as `web_search_20250305`) carry no input schema.
 */
function validateTool(tool: unknown, index: number): void {
  const path = `tools.${index}`
  if (!isRecord(tool)) refuse(`${path}: Input should be an object`)
  if (tool.type !== undefined && tool.type !== 'custom') return
  if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
    refuse(`${path}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`)
  if (!isRecord(tool.input_schema)) refuse(`${path}.custom.input_schema: Field required`)
  if (tool.input_schema.type !== 'object')
    refuse(`${path}.custom.input_schema.type: Input should be 'object'`)
}

/** Checks the conversation rules; throws a RequestRefusal naming the first broken one. */
export function validateConversation(messages: unknown[]): void {
  if (messages.length === 0) refuse('messages: at least one message is required')
  let previousRole: unknown = null
  /** The tool_use ids of the previous assistant message, which this user message must answer. */
  let unansweredIds: string[] = []
  messages.forEach((message, index) => {
    const path = `messages.${index}`
    if (!isRecord(message)) refuse(`${path}: Input should be an object`)
    const role = message.role
    if (role !== 'user' && role !== 'assistant')
      refuse(`${path}.role: Input should be 'user' or 'assistant'`)
    if (index === 0 && role !== 'user') refuse('messages: first message must use the "user" role')
    if (role === previousRole) {
      refuse(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`,
      )
    }
    const blocks = contentBlocks(message.content, path)
    const isFinalAssistant = role === 'assistant' && index === messages.length - 1
    if (isEmptyContent(message.content) && !isFinalAssistant) {
      refuse(
        `${path}: all messages must have non-empty content except for the optional final assistant message`,
      )
    }
    blocks.forEach((block, blockIndex) =>
      checkBlockRole(block, role, `${path}.content.${blockIndex}`),
    )
    if (role === 'user') {
      checkToolResults(blocks, unansweredIds, index)
      unansweredIds = []
    } else {
      unansweredIds = blocks
        .filter((block) => block.type === 'tool_use')
        .map((block) => block.id as string)
    }
    previousRole = role
  })
  if (unansweredIds.length > 0) refuseUnanswered(unansweredIds, messages.length - 1)
}

function contentBlocks(content: unknown, path: string): Block[] {
  if (typeof content === 'string') return []
  if (!Array.isArray(content)) refuse(`${path}.content: Input should be a valid string or list`)
  return content.map((block, blockIndex) => checkBlock(block, `${path}.content.${blockIndex}`))
}

function checkBlock(block: unknown, path: string): Block {
  if (!isRecord(block) || typeof block.type !== 'string')
    refuse(`${path}: Input should be a content block with a type`)
  if (block.type === 'text' && typeof block.text !== 'string')
    refuse(`${path}.text: Field required`)
  if (block.type === 'text' && block.text === '')
    refuse(`${path}.text: text content blocks must be non-empty`)
  if (block.type === 'tool_use') {
    if (typeof block.id !== 'string' || block.id === '') refuse(`${path}.id: Field required`)
    if (typeof block.name !== 'string') refuse(`${path}.name: Field required`)
    if (!isRecord(block.input)) refuse(`${path}.input: Input should be a valid dictionary`)
  }
  if (block.type === 'tool_result' && typeof block.tool_use_id !== 'string') {
    refuse(`${path}.tool_use_id: Field required`)
  }
  return block as Block
}

function isEmptyContent(content: unknown): boolean {
  return content === '' || (Array.isArray(content) && content.length === 0)
}

function checkBlockRole(block: Block, role: 'user' | 'assistant', path: string): void {
  if (block.type === 'tool_use' && role !== 'assistant') {
    refuse(`${path}: \`tool_use\` blocks are only allowed in assistant messages`)
  }
  if (block.type === 'tool_result' && role !== 'user') {
    refuse(`${path}: \`tool_result\` blocks are only allowed in user messages`)
  }
}

function checkToolResults(blocks: Block[], unansweredIds: string[], index: number): void {
  const resultIds: string[] = []
  blocks.forEach((block, blockIndex) => {
    if (block.type !== 'tool_result') return
    const id = block.tool_use_id as string
    if (!unansweredIds.includes(id)) {
      refuse(
        `messages.${index}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      )
    }
    resultIds.push(id)
  })
  const missing = unansweredIds.filter((id) => !resultIds.includes(id))
  if (missing.length > 0) refuseUnanswered(missing, index - 1)
}

function refuseUnanswered(ids: string[], assistantIndex: number): never {
  refuse(
    `messages.${assistantIndex}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
      `${ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  )
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function agentName(headers: IncomingHttpHeaders): string | null {
  const value = headers['x-agent-name']
  const name = Array.isArray(value) ? value[0] : value
  return name === undefined || name === '' ? null : name
}

/** The body of a refused request, for the record: what parsed, or the raw text. */
export function looseBody(bodyText: string): ModelRequest {
  try {
    const value: unknown = JSON.parse(bodyText)
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as ModelRequest
  } catch {
    // Not JSON: fall through and keep the raw text.
  }
  return { model: '', messages: [], max_tokens: 0, raw: bodyText }
}
