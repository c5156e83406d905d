/**
 * Turning a scripted turn into what the Messages API sends: the exact server-sent event sequence
 * of a streaming call, or the JSON Message of a non-streaming one; and writing the events out,
 * with the scripted stream faults.
 */
import type { ServerResponse } from 'node:http'
import { estimateTokens } from '../shared/token-estimate'
import type { StreamFault, Turn } from './script'

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens'

export type ResolvedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }

/** The prompt's tokens as the API splits them: uncached, written to the cache, read from it. */
export interface PromptUsage {
  inputTokens: number
  cacheCreationTokens: number
  cacheReadTokens: number
}

/** A turn with every default filled in: tool ids, stop reason and token counts. */
export interface ResolvedTurn extends PromptUsage {
  content: ResolvedBlock[]
  stopReason: StopReason
  outputTokens: number
}

export interface MessageHeader {
  id: string
  model: string
}

export interface ServerSentEvent {
  type: string
  data: Record<string, unknown>
}

/**
 * Fills in a turn's defaults. `nextToolId` is called once per tool_use block without an id;
 * `prompt` is the accounting used when the turn gives no input token count; `thinking` (the
 * thinking blocks, when the request asked for it) opens the reply.
 */
export function resolveTurn(
  turn: Turn,
  nextToolId: () => string,
  prompt: PromptUsage,
  thinking: readonly ResolvedBlock[] = [],
): ResolvedTurn {
  const content = turn.content.map((block): ResolvedBlock =>
    block.type === 'text'
      ? { type: 'text', text: block.text }
      : { type: 'tool_use', id: block.id ?? nextToolId(), name: block.name, input: block.input },
  )
  content.unshift(...thinking)
  const hasToolUse = content.some((block) => block.type === 'tool_use')
  const outputText = content.map((block) =>
    block.type === 'text'
      ? block.text
      : block.type === 'thinking'
        ? block.thinking
        : block.type === 'redacted_thinking'
          ? block.data
          : JSON.stringify(block.input),
  )
  const scripted = turn.usage?.input_tokens
  return {
    content,
    stopReason: turn.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    // A scripted input count stands for the whole prompt, uncached.
    ...(scripted === undefined
      ? prompt
      : { inputTokens: scripted, cacheCreationTokens: 0, cacheReadTokens: 0 }),
    outputTokens: turn.usage?.output_tokens ?? estimateTokens(outputText.join('')),
  }
}

/** The usage object of a message, as the API reports it. */
export function usageOf(turn: ResolvedTurn, outputTokens: number): Record<string, number> {
  return {
    input_tokens: turn.inputTokens,
    cache_creation_input_tokens: turn.cacheCreationTokens,
    cache_read_input_tokens: turn.cacheReadTokens,
    output_tokens: outputTokens,
  }
}

/** Splits by code points, so a chunk never ends inside a surrogate pair. */
export function splitIntoChunks(value: string, chunkCharacters: number): string[] {
  const characters = Array.from(value)
  const size = Math.max(1, Math.floor(chunkCharacters))
  const chunks: string[] = []
  for (let start = 0; start < characters.length; start += size) {
    chunks.push(characters.slice(start, start + size).join(''))
  }
  return chunks
}

function blockEvents(
  block: ResolvedBlock,
  index: number,
  chunkCharacters: number,
): ServerSentEvent[] {
  const start: ServerSentEvent = {
    type: 'content_block_start',
    data: { type: 'content_block_start', index, content_block: emptyBlock(block) },
  }
  const deltas = blockDeltas(block, chunkCharacters).map((delta): ServerSentEvent => ({
    type: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta },
  }))
  const stop: ServerSentEvent = {
    type: 'content_block_stop',
    data: { type: 'content_block_stop', index },
  }
  return [start, ...deltas, stop]
}

/** A block as its content_block_start shows it, before any delta. */
function emptyBlock(block: ResolvedBlock): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: '' }
  if (block.type === 'thinking') return { type: 'thinking', thinking: '', signature: '' }
  // Redacted thinking comes whole in its start event, with no deltas, as the API sends it.
  if (block.type === 'redacted_thinking') return { ...block }
  return { type: 'tool_use', id: block.id, name: block.name, input: {} }
}

function blockDeltas(block: ResolvedBlock, chunkCharacters: number): Record<string, unknown>[] {
  if (block.type === 'text')
    return splitIntoChunks(block.text, chunkCharacters).map((text) => ({
      type: 'text_delta',
      text,
    }))
  if (block.type === 'redacted_thinking') return []
  if (block.type === 'thinking')
    return [
      ...splitIntoChunks(block.thinking, chunkCharacters).map((thinking) => ({
        type: 'thinking_delta',
        thinking,
      })),
      // The signature comes whole, just before the block ends, as the API sends it.
      { type: 'signature_delta', signature: block.signature },
    ]
  return splitIntoChunks(JSON.stringify(block.input), chunkCharacters).map((partial_json) => ({
    type: 'input_json_delta',
    partial_json,
  }))
}

/** The full event sequence of one streamed message, in the order the API sends it. */
export function turnEvents(
  turn: ResolvedTurn,
  header: MessageHeader,
  chunkCharacters: number,
): ServerSentEvent[] {
  const messageStart: ServerSentEvent = {
    type: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: header.id,
        type: 'message',
        role: 'assistant',
        model: header.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageOf(turn, 1),
      },
    },
  }
  const messageDelta: ServerSentEvent = {
    type: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: turn.stopReason, stop_sequence: null },
      usage: usageOf(turn, turn.outputTokens),
    },
  }
  return [
    messageStart,
    { type: 'ping', data: { type: 'ping' } },
    ...turn.content.flatMap((block, index) => blockEvents(block, index, chunkCharacters)),
    messageDelta,
    { type: 'message_stop', data: { type: 'message_stop' } },
  ]
}

/** The complete Message a non-streaming call answers with. */
export function turnMessage(turn: ResolvedTurn, header: MessageHeader): Record<string, unknown> {
  return {
    id: header.id,
    type: 'message',
    role: 'assistant',
    model: header.model,
    content: turn.content,
    stop_reason: turn.stopReason,
    stop_sequence: null,
    usage: usageOf(turn, turn.outputTokens),
  }
}

const errorTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

export function defaultErrorType(status: number): string {
  return errorTypeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

/** The API's error body, the same in a JSON response and in an SSE `error` event. */
export function errorBody(errorType: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: errorType, message } }
}

export function errorEvent(errorType: string, message: string): ServerSentEvent {
  return { type: 'error', data: errorBody(errorType, message) }
}

/** Every event carries its `event:` line: the SDK drops events without one. */
export function formatEvent(event: ServerSentEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`
}

export interface StreamPacing {
  eventDelayMs: number
  /** A delay the server can cut short when it closes. */
  wait(milliseconds: number): Promise<void>
  isClosing(): boolean
}

/**
 * Writes `events` as a 200 SSE response, striking `fault` (if any) after `afterEvents` events:
 * an `error` event, a destroyed socket, or a stall before the stream goes on.
 */
export async function writeEventStream(
  response: ServerResponse,
  events: ServerSentEvent[],
  fault: StreamFault | null,
  pacing: StreamPacing,
): Promise<void> {
  let clientGone = false
  response.once('close', () => (clientGone = true))
  const isGone = (): boolean => clientGone || pacing.isClosing()
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  })
  if (fault === null && pacing.eventDelayMs <= 0) {
    // A model without latency has the whole turn at once: one write, headers included, so the
    // client reads it in one go instead of event by event.
    if (!isGone()) response.end(events.map(formatEvent).join(''))
    return
  }
  response.flushHeaders()
  const faultAt = fault ? Math.min(Math.max(0, fault.afterEvents), events.length) : -1
  for (let index = 0; index <= events.length; index += 1) {
    if (fault && index === faultAt) {
      if (fault.fault === 'stream-error') {
        const message = fault.message ?? 'offline script: scripted stream error'
        await write(
          response,
          formatEvent(errorEvent(fault.errorType ?? 'overloaded_error', message)),
        )
        return void response.end()
      }
      // Every earlier write has reached the socket (write() waits), so the client gets them all.
      if (fault.fault === 'drop') return void response.socket?.destroy()
      await pacing.wait(fault.milliseconds)
    }
    const event = events[index]
    if (event === undefined || isGone()) break
    if (index > 0) await pacing.wait(pacing.eventDelayMs)
    if (isGone()) break
    await write(response, formatEvent(event))
  }
  if (!isGone()) response.end()
}

/** Resolves once the chunk reached the socket, or once the client is gone. */
function write(response: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('close', done)
      resolve()
    }
    response.once('close', done)
    response.write(chunk, done)
  })
}
