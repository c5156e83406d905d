import type { TeamEvent } from '../shared/events'
import { isPause } from '../shared/roster'
import type { Writable } from 'node:stream'
import { visibleText } from './output'

/**
 * Prints a team's activity to a terminal as readable lines: whole text blocks, tool calls with
 * a one-line summary of input and result, messages, and status changes. `--json` prints every
 * event instead, one JSON object a line.
 */
export function activityPrinter(
  stream: Writable,
  options: { json: boolean },
): (event: TeamEvent) => void {
  // What agents and models say is printed as the terminal shows it, never as it would obey it.
  if (options.json) return (event) => stream.write(`${visibleText(JSON.stringify(event))}\n`)
  return (event) => {
    const line = describe(event)
    if (line !== null) stream.write(`${visibleText(line)}\n`)
  }
}

function describe(event: TeamEvent): string | null {
  switch (event.type) {
    case 'transcript-appended': {
      const record = event.record
      if (record.kind === 'compaction')
        return `[${event.agent}] compacted its conversation: ${record.tokens_before} → ${record.tokens_after} tokens (window ${record.window})`
      if (record.kind !== 'assistant') return null
      const parts: string[] = []
      for (const block of record.content) {
        if (block.type === 'text' && typeof block.text === 'string' && block.text.trim())
          parts.push(`[${event.agent}] ${block.text.trim()}`)
        if (block.type === 'tool_use')
          parts.push(
            `[${event.agent}] → ${flat(String(block.name))} ${flat(JSON.stringify(block.input))}`,
          )
      }
      return parts.length > 0 ? parts.join('\n') : null
    }
    case 'tool-call-finished':
      return `[${event.agent}] ${event.is_error ? '✗' : '←'} ${flat(event.name)}: ${flat(event.content)}`
    case 'message-sent':
      return `[${event.message.from} → ${event.message.to}] (${event.message.type}) ${flat(event.message.content)}`
    case 'agent-status-changed':
      return `[${event.name}] ${event.previous} → ${event.status} (${isPause(event.cause) ? 'paused: ' : ''}${event.reason})`
    case 'agent-error':
      return `[${event.agent}] error: ${event.message}`
    case 'message-rejected':
      return `[${event.inbox}] rejected a line at p${event.position.segment}-${event.position.offset}: ${event.reason}`
    case 'team-alert':
      return `[team] ${event.message}`
    case 'team-alert-cleared':
      return `[team] the ${event.code} problem is resolved`
    case 'stream-reset':
      return `[${event.agent}] the partial turn was thrown away: ${event.reason}`
    case 'protocol-changed':
      return `[${event.request.kind} ${event.request.id}] ${event.request.from} → ${event.request.to}: ${event.request.status}${event.request.reason ? ` (${event.request.reason})` : ''}`
    case 'roster-invalid':
      return `roster: ${event.message}`
    default:
      return null
  }
}

/** A one-line summary: whitespace runs (newlines too) as one space, cut at `limit`. */
function flat(text: string, limit = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat
}
