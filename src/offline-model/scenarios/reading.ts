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
  // Mail is not a task, nor are a Claude Code hand-over's mark (Claude Code may send it as a
  // message of its own) and the reminders Claude Code adds to a user message.
  const isWork = (block: Block): boolean =>
    block.type === 'text' &&
    typeof block.text === 'string' &&
    !block.text.startsWith('<inbox>') &&
    !/^\s*\(team delivery #[0-9a-f.]+\)\s*$/.test(block.text) &&
    !block.text.trimStart().startsWith('<system-reminder>')
  const index = request.messages.findLastIndex(
    (message) => (message as { role?: unknown }).role === 'user' && blocksOf(message).some(isWork),
  )
  if (index < 0) return null
  const given = blocksOf(request.messages[index]).filter(isWork)
  if (!given.some((block) => task(String(block.text)))) return null
  return { ...request, messages: request.messages.slice(index) }
}

/** A tool call and, once it came back, its result. */
export interface ExchangeSeen {
  readonly call: ToolCallSeen
  readonly result: ToolResultSeen | null
}

/** Every tool call of the conversation in order, each with its result when it has one. */
export function exchanges(request: ModelRequest): ExchangeSeen[] {
  const calls = toolCalls(request)
  const names = new Map(calls.map((call) => [call.id, call.name]))
  const results = new Map<string, ToolResultSeen>()
  for (const message of request.messages) {
    if ((message as { role?: unknown }).role !== 'user') continue
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_result') continue
      const toolUseId = String(block.tool_use_id)
      results.set(toolUseId, {
        toolUseId,
        name: names.get(toolUseId) ?? 'unknown',
        content: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
        isError: block.is_error === true,
      })
    }
  }
  return calls.map((call) => ({ call, result: results.get(call.id) ?? null }))
}

/** The system prompt's text, sent as a string or as blocks. */
export function systemText(request: ModelRequest): string {
  const system = request.system
  if (typeof system === 'string') return system
  if (!Array.isArray(system)) return ''
  return system
    .map((block) =>
      typeof (block as Block).text === 'string' ? String((block as Block).text) : '',
    )
    .join('\n')
}

/**
 * The agent's own git branch when it works in a worktree of its own, as its system prompt says
 * (agents/prompts.ts); null in the shared workspace.
 */
export function ownBranch(request: ModelRequest): string | null {
  return (
    /your own git worktree on the branch (team\/[a-z][a-z0-9_-]*)/.exec(systemText(request))?.[1] ??
    null
  )
}

/**
 * The conversation from the latest user message that brought words (a task or mail, not only
 * tool results), when that message holds mail `wanted` picks; null otherwise. A play started
 * by a message (a review comment) reads only this part, so it ends once newer words came.
 */
export function sinceLatestMail(
  request: ModelRequest,
  wanted: (mail: MailSeen) => boolean,
): { request: ModelRequest; mail: MailSeen } | null {
  const index = request.messages.findLastIndex(
    (message) =>
      (message as { role?: unknown }).role === 'user' &&
      blocksOf(message).some((block) => block.type === 'text'),
  )
  if (index < 0) return null
  const since = { ...request, messages: request.messages.slice(index) }
  const mail = mailSeen({ ...since, messages: since.messages.slice(0, 1) }).find(wanted)
  return mail === undefined ? null : { request: since, mail }
}
