import type { ModelRequest } from '../script'

/** What a scripted model reads from a request: the calls made so far, the latest results, mail. */
export interface ToolCallSeen {
  readonly id: string
  readonly name: string
  readonly input: Record<string, unknown>
}
export interface ToolResultSeen {
  readonly toolUseId: string
  readonly name: string
  readonly content: string
  readonly isError: boolean
}
export interface MailSeen {
  readonly from: string
  readonly type: string
  readonly content: string
}

interface Block {
  type?: unknown
  text?: unknown
  id?: unknown
  name?: unknown
  input?: unknown
  tool_use_id?: unknown
  content?: unknown
  is_error?: unknown
}

function blocksOf(message: unknown): Block[] {
  const content = (message as { content?: unknown }).content
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return Array.isArray(content) ? (content as Block[]) : []
}

export function toolCalls(request: ModelRequest): ToolCallSeen[] {
  return request.messages
    .filter((message) => (message as { role?: unknown }).role === 'assistant')
    .flatMap(blocksOf)
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({
      id: String(block.id),
      name: String(block.name),
      input: (block.input ?? {}) as Record<string, unknown>,
    }))
}

/** The tool results in the last user message, each with the name of the call it answers. */
export function latestResults(request: ModelRequest): ToolResultSeen[] {
  const last = request.messages[request.messages.length - 1]
  if (!last || (last as { role?: unknown }).role !== 'user') return []
  const names = new Map(toolCalls(request).map((call) => [call.id, call.name]))
  return blocksOf(last)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: String(block.tool_use_id),
      name: names.get(String(block.tool_use_id)) ?? 'unknown',
      content: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
      isError: block.is_error === true,
    }))
}

/** Every message that reached the agent, through `<inbox>` injections or read_inbox results. */
export function mailSeen(request: ModelRequest, onlyLatest = false): MailSeen[] {
  const messages = onlyLatest ? request.messages.slice(-1) : request.messages
  const mail: MailSeen[] = []
  for (const message of messages) {
    if ((message as { role?: unknown }).role !== 'user') continue
    for (const block of blocksOf(message)) {
      const text =
        block.type === 'text'
          ? String(block.text)
          : block.type === 'tool_result' && typeof block.content === 'string'
            ? block.content
            : ''
      for (const match of text.matchAll(/<inbox>([\s\S]*?)<\/inbox>/g))
        mail.push(...parseMail(match[1] ?? ''))
      if (block.type === 'tool_result' && text.trimStart().startsWith('['))
        mail.push(...parseMail(text))
    }
  }
  return mail
}

function parseMail(json: string): MailSeen[] {
  try {
    const value = JSON.parse(json) as unknown
    if (!Array.isArray(value)) return []
    return value.filter(
      (item): item is MailSeen =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as MailSeen).from === 'string' &&
        typeof (item as MailSeen).content === 'string',
    )
  } catch {
    return []
  }
}

/** The texts of the last user message (the person's words, a task, injected mail). */
export function latestTexts(request: ModelRequest): string[] {
  const last = request.messages[request.messages.length - 1]
  if (!last || (last as { role?: unknown }).role !== 'user') return []
  return blocksOf(last)
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text))
}

/**
 * The conversation from the latest turn that gave the agent work (the person's chat for the
 * lead, a spawn prompt for a teammate; injected mail does not count), or null when that turn
 * does not match `task`. A script that plays a task reads only this part, so it plays the task
 * again when it is given again and stops playing once a new turn came.
 */
export function sinceLatestTask(
  request: ModelRequest,
  task: (text: string) => boolean,
): ModelRequest | null {
  const isWork = (block: Block): boolean =>
    block.type === 'text' && typeof block.text === 'string' && !block.text.startsWith('<inbox>')
  const index = request.messages.findLastIndex(
    (message) => (message as { role?: unknown }).role === 'user' && blocksOf(message).some(isWork),
  )
  if (index < 0) return null
  const given = blocksOf(request.messages[index]).filter(isWork)
  if (!given.some((block) => task(String(block.text)))) return null
  return { ...request, messages: request.messages.slice(index) }
}
