import type { Message } from '@anthropic-ai/sdk/resources/messages'
import type { TextBlock } from '../../shared/transcript'
import type { ModelTurn } from './client'
import { estimateTokens } from '../../shared/token-estimate'

/** How a turn cut short by Stop is recorded: what streamed is kept, marked so. */
export const INTERRUPTED = 'interrupted'

/** A model turn the person stopped while it streamed: what came so far, as a turn. */
export interface InterruptedTurn extends ModelTurn {
  readonly stop_reason: typeof INTERRUPTED
}

/**
 * Thrown by `ModelClient.turn` when its signal aborted the stream after the reply began: it
 * carries the partial turn, so that what the person watched stream (and the tokens it cost)
 * is not thrown away. `cause` is the SDK's own abort error.
 */
export class TurnInterrupted extends Error {
  override readonly name = 'TurnInterrupted'
  constructor(
    readonly turn: InterruptedTurn,
    cause: unknown,
  ) {
    super('the model turn was stopped while it streamed', { cause })
  }
}

/**
 * The partial turn of a stream's snapshot, or null when no reply had begun (no
 * `message_start`). Only text is kept: a tool call cut off mid-input must never run or be sent
 * back, and a thinking block has no signature until it is complete. Usage is the stream's own
 * so far; when its closing `message_delta` never came, the output tokens the stream reported
 * (one, at `message_start`) are replaced by an estimate from the text, and `usage_estimated`
 * says so.
 */
export function interruptedTurn(snapshot: Message | undefined): InterruptedTurn | null {
  if (snapshot === undefined) return null
  const content: TextBlock[] = snapshot.content.flatMap((block) =>
    // The API refuses an empty or blank text block in a later request.
    block.type === 'text' && block.text.trim() !== '' ? [{ type: 'text', text: block.text }] : [],
  )
  const usage = snapshot.usage
  const finalUsage = snapshot.stop_reason !== null
  const streamed = snapshot.content
    .map((block) =>
      block.type === 'text'
        ? block.text
        : block.type === 'thinking'
          ? block.thinking
          : block.type === 'tool_use'
            ? JSON.stringify(block.input ?? {})
            : '',
    )
    .join('')
  const outputTokens = finalUsage
    ? usage.output_tokens
    : Math.max(usage.output_tokens, streamed === '' ? 0 : estimateTokens(streamed))
  return {
    message_id: snapshot.id,
    model: snapshot.model,
    content,
    stop_reason: INTERRUPTED,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: outputTokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    },
    ...(finalUsage ? {} : { usage_estimated: true }),
  }
}

/** The partial turn an error carries, if it is a stop in the middle of a stream. */
export function partialOf(error: unknown): InterruptedTurn | null {
  return error instanceof TurnInterrupted ? error.turn : null
}

/**
 * A summarizing call stopped mid-stream leaves no partial summary: the error goes on as the
 * plain abort it was.
 */
export function withoutPartial(error: unknown): never {
  throw error instanceof TurnInterrupted ? error.cause : error
}
