import type { ModelRequest, Reply, Turn } from '../script'
import { mcpToolRequest } from './mcp'
import { latestResults, latestTexts, mailSeen, toolCalls } from './reading'
import { teamStatus } from './team-status'

/**
 * The offline model outside the demo: a small, honest director that understands a few plain
 * requests, so that a newcomer (and the end-to-end tests) can drive a team by hand without a
 * key. The lead passes "have alice message bob" on to alice; a teammate asked to message
 * someone does it; a teammate told to "run `a command`" (in its first prompt or in a message)
 * calls bash with it, so that approvals can be tried without a key; a shutdown request is
 * answered by approving it; anything else gets where the team stands (`team-status.ts`) and
 * what the offline model can do.
 */
const say = (text: string): Turn => ({ content: [{ type: 'text', text }] })

/** "run `touch approved.txt`": the command between the backticks. */
const RUN_COMMAND = /\brun\s+`([^`\n]+)`/i

const RELAY =
  /\b(?:have|ask|tell|get)\s+([a-z][a-z0-9_-]*)\s+(?:to\s+)?(?:send|message|write to|greet)\s+([a-z][a-z0-9_-]*)/i

export function everydayLead(request: ModelRequest): Reply {
  const results = latestResults(request)
  if (results.some((result) => result.name === 'list_teammates')) return teamStatus(request)
  if (results.length > 0) {
    const failed = results.filter((result) => result.isError)
    return say(
      failed.length > 0
        ? `That did not work: ${failed.map((result) => result.content).join('; ')}`
        : `Done: ${results.map((result) => result.content).join('; ')}`,
    )
  }
  const texts = latestTexts(request).filter((text) => !text.startsWith('<inbox>'))
  const toolAsked = mcpToolRequest(request, texts)
  if (toolAsked !== null) return toolAsked
  const asked = texts.map((text) => RELAY.exec(text)).find((match) => match !== null)
  if (asked) {
    const [, sender, recipient] = asked
    return {
      content: [
        { type: 'text', text: `I'll ask ${sender} to message ${recipient}.` },
        {
          type: 'tool_use',
          name: 'send_message',
          input: {
            to: sender?.toLowerCase(),
            content: `Please send ${recipient?.toLowerCase()} a message saying hello from the team.`,
          },
        },
      ],
    }
  }
  const mail = mailSeen(request, true)
  if (mail.length > 0)
    return say(
      `News from the team: ${mail.map((item) => `${item.from}: ${item.content}`).join(' | ')}`,
    )
  // Anything else: where the team stands, from the real roster and the mail that came.
  return teamStatus(request)
}

export function everydayTeammate(agent: string, request: ModelRequest): Reply {
  const results = latestResults(request)
  if (results.length > 0)
    return say(
      results.every((result) => !result.isError)
        ? 'Done.'
        : `That failed: ${results.map((result) => result.content).join('; ')}`,
    )
  const mail = mailSeen(request, true)
  const shutdown = mail.find((item) => item.type === 'shutdown_request')
  if (shutdown) {
    const id = (shutdown as { request_id?: unknown }).request_id
    return {
      content: [
        { type: 'text', text: 'Shutting down as asked.' },
        {
          type: 'tool_use',
          name: 'shutdown_response',
          input: { request_id: String(id ?? ''), approve: true, reason: 'my work is saved' },
        },
      ],
    }
  }
  const relay = mail
    .map((item) => /\bsend\s+([a-z][a-z0-9_-]*)\s+a message\b/i.exec(item.content))
    .find((match) => match !== null)
  if (relay) {
    const recipient = relay[1]?.toLowerCase() ?? 'lead'
    return {
      content: [
        { type: 'text', text: `Messaging ${recipient}.` },
        {
          type: 'tool_use',
          name: 'send_message',
          input: { to: recipient, content: `Hello ${recipient}, this is ${agent}.` },
        },
      ],
    }
  }
  // From its first prompt or from a message (the person's, the lead's).
  const command = [
    ...latestTexts(request).filter((text) => !text.startsWith('<inbox>')),
    ...mail.map((item) => item.content),
  ]
    .map((text) => RUN_COMMAND.exec(text))
    .find((match) => match !== null)?.[1]
  if (command !== undefined)
    return {
      content: [
        { type: 'text', text: `Running ${command}.` },
        { type: 'tool_use', name: 'bash', input: { command } },
      ],
    }
  if (mail.length > 0)
    return say(
      `${agent} here: noted ${mail.map((item) => `"${item.content}" from ${item.from}`).join(', ')}.`,
    )
  if (toolCalls(request).length === 0 && latestTexts(request).length > 0)
    return say(`${agent} here, ready.`)
  return say(`${agent} here.`)
}
