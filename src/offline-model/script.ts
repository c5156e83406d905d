/**
 * The script of the offline model server: what it answers, turn by turn, per agent.
 *
 * A script is a plain function from a request to a reply. `queueScript` builds the common kind,
 * a queue of replies per agent that fails loudly (HTTP 500 and a record) when a call comes that
 * nobody expected, so tests catch both surplus and missing model calls.
 */

export type TurnBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string }

export interface Turn {
  content: TurnBlock[]
  /** Default: 'tool_use' if any tool_use block, else 'end_turn'. */
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens'
  /** The thinking shown when the request asks for thinking (a default thought otherwise). */
  thinking?: string
  /** With thinking asked for: a `redacted_thinking` block follows the thinking block. */
  redactedThinking?: boolean
  /** Default: estimated, about one token per four characters. */
  usage?: { input_tokens?: number; output_tokens?: number }
}

export type Fault =
  /**
   * An HTTP error with the API's JSON error body. `shouldRetry` sets the SDK's `x-should-retry`
   * header (the SDK obeys it over its own status rules); left out, the SDK decides by status.
   */
  | {
      fault: 'http'
      status: number
      errorType?: string
      message?: string
      retryAfterSeconds?: number
      shouldRetry?: boolean
    }
  /** 200 + SSE, then an `event: error` after `afterEvents` events of `turn` (or a default turn). */
  | {
      fault: 'stream-error'
      afterEvents: number
      errorType?: string
      message?: string
      turn?: Turn
    }
  /** 200 + SSE, then the socket is destroyed after `afterEvents` events. */
  | { fault: 'drop'; afterEvents: number; turn?: Turn }
  /** Silence for `milliseconds` after `afterEvents` events, then the stream goes on normally. */
  | { fault: 'stall'; afterEvents: number; milliseconds: number; turn?: Turn }

export type Reply = Turn | Fault

/** The faults that strike once the response has begun. */
export type StreamFault = Exclude<Fault, { fault: 'http' }>

export interface ModelRequest {
  model: string
  system?: unknown
  messages: unknown[]
  tools?: unknown[]
  max_tokens: number
  stream?: boolean
  metadata?: unknown
  [key: string]: unknown
}

export interface RequestContext {
  /** From the `x-agent-name` request header; null when absent. */
  agent: string | null
  /** 1-based count of requests handed to the script so far, all agents together. */
  call: number
  /** 1-based count of requests handed to the script so far for this agent. */
  agentCall: number
}

export type Script = (request: ModelRequest, context: RequestContext) => Reply | Promise<Reply>

export type QueueScript = Script & {
  /** One description per call that found nothing queued for its agent. */
  unexpected(): string[]
  /** Replies still queued, per agent (agents with nothing left show 0). */
  remaining(): Record<string, number>
  /** Throws, listing leftover replies and unexpected calls, unless every reply was used. */
  assertConsumed(): void
}

/** The queue key of requests that carry no `x-agent-name` header. */
export const defaultAgentKey = 'default'

export function isFault(reply: Reply): reply is Fault {
  return 'fault' in reply
}

export function text(text: string): Turn {
  return { content: [{ type: 'text', text }] }
}

export function toolCall(name: string, input: Record<string, unknown>, id?: string): Turn {
  const block: TurnBlock =
    id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', name, input, id }
  return { content: [block] }
}

/**
 * Replies in order per agent (key `default` for requests without an agent). An unexpected call
 * answers HTTP 500 `api_error` with `x-should-retry: false`, so the SDK does not turn one
 * surprise into several, and is recorded for `unexpected()` and `assertConsumed()`.
 */
export function queueScript(replies: Record<string, Reply[]>): QueueScript {
  const queues = new Map(Object.entries(replies).map(([agent, list]) => [agent, [...list]]))
  const unexpectedCalls: string[] = []

  const script: Script = (_request, context) => {
    const key = context.agent ?? defaultAgentKey
    const next = queues.get(key)?.shift()
    if (next !== undefined) return next
    const message = `offline script: no reply queued for agent ${key} (call ${context.agentCall})`
    unexpectedCalls.push(message)
    return { fault: 'http', status: 500, errorType: 'api_error', message, shouldRetry: false }
  }

  const remaining = (): Record<string, number> =>
    Object.fromEntries([...queues].map(([agent, list]) => [agent, list.length]))

  const assertConsumed = (): void => {
    const leftovers = Object.entries(remaining())
      .filter(([, count]) => count > 0)
      .map(
        ([agent, count]) =>
          `agent ${agent} has ${count} unused ${count === 1 ? 'reply' : 'replies'}`,
      )
    const problems = [...leftovers, ...unexpectedCalls]
    if (problems.length > 0)
      throw new Error(`offline script not consumed as expected:\n- ${problems.join('\n- ')}`)
  }

  return Object.assign(script, {
    unexpected: () => [...unexpectedCalls],
    remaining,
    assertConsumed,
  })
}

/** What a fault without its own turn streams before it strikes: long enough for several deltas. */
export const interruptedTurn: Turn = text(
  'This reply is interrupted by a scripted fault of the offline model.',
)

/** A script bug (a reply that is neither a turn nor a fault) fails loudly, as a 500. */
export function assertTurn(turn: Turn): void {
  const valid =
    Array.isArray(turn.content) &&
    turn.content.every((block) =>
      block.type === 'text'
        ? typeof block.text === 'string'
        : block.type === 'tool_use' &&
          typeof block.name === 'string' &&
          typeof block.input === 'object' &&
          block.input !== null,
    )
  if (!valid) throw new Error(`offline script: invalid reply ${JSON.stringify(turn)}`)
}
