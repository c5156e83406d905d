import Anthropic from '@anthropic-ai/sdk'
import type {
  Message,
  MessageParam,
  MessageStreamEvent,
  Tool as ApiTool,
} from '@anthropic-ai/sdk/resources/messages'
import type { AssistantBlock, Usage } from '../../shared/transcript'
import { withCacheBreakpoints, withoutCacheBreakpoints } from './caching'
import { interruptedTurn, TurnInterrupted } from './interrupted'
import { TokenCounter, type CountRequest } from './token-count'
import { createTransport, TransportSettingError, type Transport } from './transport'

/**
 * One transport, and so one pool of keep-alive sockets, for every client made without its own:
 * the host makes a client per endpoint setting, and a pool for each would keep its sockets open.
 */
let sharedTransport: Transport | null = null

export interface ModelEndpoint {
  readonly apiKey: string
  /** Any Anthropic-compatible endpoint; the SDK's default when absent. */
  readonly baseURL?: string
  readonly model: string
  readonly maxTokens?: number
  /**
   * Retries of a failed request by the SDK itself (default 0: the agent retries, visibly, and
   * also after a stream that broke off, which the SDK does not retry).
   */
  readonly maxRetries?: number
  /**
   * The context window in tokens for models the built-in table does not know (the settings'
   * `contextWindow`); the endpoint's own "prompt is too long" corrects it.
   */
  readonly contextWindow?: number
  /** Default: one shared proxy-aware transport, reading the proxy variables of this process. */
  readonly transport?: Transport
  /**
   * Internal, not a setting: `false` sends no `cache_control` marks. Only the long-session
   * benchmark sets it, to measure what a session costs without prompt caching in the same run
   * as with it; the app and the CLI always cache (default true).
   */
  readonly promptCaching?: boolean
}

/** Whether two endpoints make the same client: every field the same. */
export function sameEndpoint(a: ModelEndpoint, b: ModelEndpoint): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ModelEndpoint>
  return [...fields].every((field) => a[field] === b[field])
}

/**
 * Whether two endpoints reach the same account: the same key at the same address. Only a change
 * here can mend a refused key; another model or context window cannot.
 */
export function sameAccount(a: ModelEndpoint, b: ModelEndpoint): boolean {
  return a.apiKey === b.apiKey && (a.baseURL ?? null) === (b.baseURL ?? null)
}

export interface StreamObserver {
  /** Any event of the stream: the stream is alive. */
  onActivity?(): void
  onText?(delta: string): void
  onToolStart?(block: { id: string; name: string }): void
  onToolInput?(id: string, partialJson: string): void
}

/** One model turn as the runtime records it. */
export interface ModelTurn {
  readonly message_id: string
  readonly model: string
  readonly content: AssistantBlock[]
  readonly stop_reason: string | null
  readonly usage: Usage
  /** The usage holds an estimate of the output tokens (a turn stopped before its end). */
  readonly usage_estimated?: true
}

export interface TurnRequest {
  readonly agent: string
  readonly system: string
  readonly messages: MessageParam[]
  readonly tools: readonly ApiTool[]
  readonly model?: string
  /** Extended thinking with this budget of tokens; off when absent. */
  readonly thinkingBudget?: number
  /**
   * A prompt sent once (a compaction's summary call): it goes without cache marks, since no
   * later call would read what they write, and a cache write costs 1.25 times plain input.
   */
  readonly oneTime?: boolean
  readonly signal?: AbortSignal
  readonly observer?: StreamObserver
}

/** One endpoint's client: streams a model turn and reports its deltas as they arrive. */
export class ModelClient {
  private readonly client: Anthropic
  private readonly counter: TokenCounter
  private readonly transportProblem: string | null

  constructor(readonly endpoint: ModelEndpoint) {
    const transport = endpoint.transport ?? (sharedTransport ??= createTransport())
    this.transportProblem = transport.problem
    this.client = new Anthropic({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL ?? null,
      maxRetries: endpoint.maxRetries ?? 0,
      fetch: transport.fetch,
      fetchOptions: transport.fetchOptions,
    })
    this.counter = new TokenCounter(this.client, endpoint.baseURL ?? 'default')
  }

  /**
   * Streams one turn with the SDK's MessageStream. Its final message exists only once
   * `message_stop` came, so a stream that broke off is never a turn; a tool call cut off by
   * max_tokens keeps the input read so far (the SDK's partial JSON parse).
   */
  async turn(request: TurnRequest): Promise<ModelTurn> {
    if (this.transportProblem !== null) throw new TransportSettingError(this.transportProblem)
    const maxTokens = this.endpoint.maxTokens ?? 8000
    const stream = this.client.messages.stream(
      {
        model: request.model ?? this.endpoint.model,
        ...(this.endpoint.promptCaching === false || request.oneTime === true
          ? withoutCacheBreakpoints(request)
          : withCacheBreakpoints(request)),
        ...thinkingParams(request.thinkingBudget, maxTokens),
      },
      { headers: { 'x-agent-name': request.agent }, signal: request.signal },
    )
    const observer = request.observer
    if (observer) stream.on('streamEvent', (event, snapshot) => report(observer, event, snapshot))
    try {
      return toTurn(await stream.finalMessage())
    } catch (error) {
      // Stopped by the person: what streamed so far is a turn of its own, kept and counted.
      const partial =
        request.signal?.aborted === true ? interruptedTurn(stream.currentMessage) : null
      throw partial === null ? error : new TurnInterrupted(partial, error)
    }
  }

  /**
   * The prompt's size in tokens: the endpoint's own count where it has `count_tokens`, an
   * estimate from its characters where it has not (remembered per endpoint).
   */
  countTokens(request: CountRequest): Promise<{ tokens: number; estimated: boolean }> {
    return this.counter.count({ ...request, model: request.model ?? this.endpoint.model })
  }
}

function thinkingParams(
  budget: number | undefined,
  maxTokens: number,
): { max_tokens: number; thinking?: { type: 'enabled'; budget_tokens: number } } {
  if (budget === undefined) return { max_tokens: maxTokens }
  // The API wants room for the answer beyond the thinking budget.
  return {
    max_tokens: Math.max(maxTokens, budget + 1024),
    thinking: { type: 'enabled', budget_tokens: budget },
  }
}

function report(observer: StreamObserver, event: MessageStreamEvent, snapshot: Message): void {
  observer.onActivity?.()
  if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
    observer.onToolStart?.({ id: event.content_block.id, name: event.content_block.name })
  } else if (event.type === 'content_block_delta') {
    if (event.delta.type === 'text_delta') observer.onText?.(event.delta.text)
    else if (event.delta.type === 'input_json_delta') {
      const block = snapshot.content[event.index]
      if (block?.type === 'tool_use') observer.onToolInput?.(block.id, event.delta.partial_json)
    }
  }
}

function toTurn(message: Message): ModelTurn {
  const usage = message.usage
  return {
    message_id: message.id,
    model: message.model,
    content: message.content.map(toBlock),
    stop_reason: message.stop_reason,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    },
  }
}

/**
 * Keeps what the API needs back from each block: text without display extras, tool calls with
 * their input, thinking blocks whole (their signature must go back unchanged).
 */
function toBlock(block: Message['content'][number]): AssistantBlock {
  if (block.type === 'text') return { type: 'text', text: block.text }
  if (block.type === 'tool_use')
    return {
      type: 'tool_use',
      id: block.id,
      name: block.name,
      input: (block.input ?? {}) as Record<string, unknown>,
    }
  return { ...block } as AssistantBlock
}
