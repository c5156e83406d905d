import type { TeamEvent } from '../shared/events'
import type { Writable } from 'node:stream'

/**
 * Prints a team's activity to a terminal as readable lines: whole text blocks, tool calls with
 * a one-line summary of input and result, messages, and status changes. `--json` prints every
 * event instead, one JSON object a line.
 */
export function activityPrinter(
  stream: Writable,
  options: { json: boolean },
): (event: TeamEvent) => void {
  if (options.json) return (event) => stream.write(`${JSON.stringify(event)}\n`)
  return (event) => {
    const line = describe(event)
    if (line !== null) stream.write(`${line}\n`)
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
            `[${event.agent}] → ${String(block.name)} ${oneLine(JSON.stringify(block.input))}`,
          )
      }
      return parts.length > 0 ? parts.join('\n') : null
    }
    case 'tool-call-finished':
      return `[${event.agent}] ${event.is_error ? '✗' : '←'} ${event.name}: ${oneLine(event.content)}`
    case 'message-sent':
      return `[${event.message.from} → ${event.message.to}] (${event.message.type}) ${oneLine(event.message.content)}`
    case 'agent-status-changed':
      return `[${event.name}] ${event.previous} → ${event.status} (${event.reason})`
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

function oneLine(text: string, limit = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat
}
