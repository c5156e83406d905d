import { readFileSync } from 'node:fs'
import type { RecordedRequest } from '../../src/offline-model/offline-server'
import type { Reply, Script } from '../../src/offline-model/script'
import type { HostUnderTest } from './host'

/** A block of a recorded request's message, loosely typed. */
export interface RequestBlock {
  type: string
  text?: string
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
  [key: string]: unknown
}

export interface RequestMessage {
  role: 'user' | 'assistant'
  content: string | RequestBlock[]
}

/** The requests the offline server recorded for `agent`, in arrival order. */
export function requestsOf(team: HostUnderTest, agent: string): RecordedRequest[] {
  return team.server.requests.filter((request) => request.agent === agent)
}

export function messagesOf(request: RecordedRequest | undefined): RequestMessage[] {
  if (!request) throw new Error('no such request was recorded')
  return request.body.messages as RequestMessage[]
}

function blocksOf(message: RequestMessage | undefined): RequestBlock[] {
  if (!message) return []
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content
}

/** The tool_result blocks of the request's last (user) message, by tool_use_id. */
export function toolResults(request: RecordedRequest | undefined): Map<string, RequestBlock> {
  const messages = messagesOf(request)
  const last = messages[messages.length - 1]
  return new Map(
    blocksOf(last)
      .filter((block) => block.type === 'tool_result')
      .map((block) => [String(block.tool_use_id), block]),
  )
}

/** The text of a tool_result block's content (a string or text blocks). */
export function resultText(block: RequestBlock | undefined): string {
  if (!block) throw new Error('no such tool_result block')
  const content = block.content
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return (content as RequestBlock[]).map((inner) => inner.text ?? '').join('')
  return ''
}

/** Every text block of the request's last (user) message. */
export function lastUserTexts(request: RecordedRequest | undefined): string[] {
  const messages = messagesOf(request)
  return blocksOf(messages[messages.length - 1])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
}

/** The whole conversation of a request as one string, to search for earlier content. */
export function conversationText(request: RecordedRequest | undefined): string {
  return JSON.stringify(messagesOf(request))
}

/** Whether the server refused or failed a request instead of asking the script. */
export function refused(request: RecordedRequest): boolean {
  return 'error' in request.reply
}

/**
 * A latch a Script can wait on: the reply is held back until the test opens it. It opens by
 * itself after `timeoutMs`, so a failing test cannot leave a request hanging forever.
 */
export interface Gate {
  readonly opened: Promise<void>
  open(): void
  /** The reply, once the gate is open. */
  hold(reply: Reply): Promise<Reply>
}

export function gate(timeoutMs = 10_000): Gate {
  let release: () => void = () => undefined
  const opened = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs)
    release = () => {
      clearTimeout(timer)
      resolve()
    }
  })
  return {
    opened,
    open: () => release(),
    hold: async (reply) => {
      await opened
      return reply
    },
  }
}

/**
 * A script from a function per agent, which records calls for unknown agents (answered with a
 * 500) so a test can assert there were none.
 */
export function agentScript(
  byAgent: (agent: string, agentCall: number) => Reply | Promise<Reply> | undefined,
): Script & { unexpected: string[] } {
  const unexpected: string[] = []
  const script: Script = (_request, context) => {
    const agent = context.agent ?? 'default'
    const reply = byAgent(agent, context.agentCall)
    if (reply !== undefined) return reply
    const message = `no reply for ${agent} (call ${context.agentCall})`
    unexpected.push(message)
    return { fault: 'http', status: 500, errorType: 'api_error', message, shouldRetry: false }
  }
  return Object.assign(script, { unexpected })
}

/** The roster as it is on disk right now (empty when config.json was never written). */
export function rosterOnDisk(
  workspace: string,
): { name: string; role: string; status: string; [key: string]: unknown }[] {
  let text: string
  try {
    text = readFileSync(`${workspace}/.team/config.json`, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return (JSON.parse(text) as { members: { name: string; role: string; status: string }[] }).members
}
