import Anthropic, { APIUserAbortError } from '@anthropic-ai/sdk'
import type { MessageParam, Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import { createNodeFetch } from './node-fetch'
import { TurnAssembly, type AssembledTurn } from './turn-assembly'

/**
 * One fetch, and so one pool of keep-alive sockets, for every client: the host makes a client
 * per endpoint setting, and a pool of its own for each would keep its sockets to the end.
 */
const sharedFetch = createNodeFetch()

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
}

export interface StreamObserver {
  /** Any data from the stream (every event, pings included): the stream is alive. */
  onActivity?(): void
  onText?(delta: string): void
  onToolStart?(block: { id: string; name: string }): void
  onToolInput?(id: string, partialJson: string): void
}

export type ModelTurn = AssembledTurn

export interface TurnRequest {
  readonly agent: string
  readonly system: string
  readonly messages: MessageParam[]
  readonly tools: readonly ApiTool[]
  readonly model?: string
  readonly signal?: AbortSignal
  readonly observer?: StreamObserver
}

/** One endpoint's client: streams a model turn and reports its deltas as they arrive. */
export class ModelClient {
  private readonly client: Anthropic

  constructor(readonly endpoint: ModelEndpoint) {
    this.client = new Anthropic({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL ?? null,
      maxRetries: endpoint.maxRetries ?? 0,
      // Keep-alive node:http instead of the platform's fetch: the same wire, a third of the CPU.
      fetch: sharedFetch,
    })
  }

  async turn(request: TurnRequest): Promise<ModelTurn> {
    // The raw event stream, folded by TurnAssembly: the SDK's MessageStream helper cost as much
    // CPU again as the request itself.
    const stream = await this.client.messages.create(
      {
        model: request.model ?? this.endpoint.model,
        max_tokens: this.endpoint.maxTokens ?? 8000,
        system: request.system,
        messages: request.messages,
        tools: [...request.tools],
        stream: true,
      },
      { headers: { 'x-agent-name': request.agent }, signal: request.signal },
    )
    const observer = request.observer
    const assembly = new TurnAssembly()
    const toolIds = new Map<number, string>()
    for await (const event of stream) {
      observer?.onActivity?.()
      assembly.add(event)
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
        toolIds.set(event.index, event.content_block.id)
        observer?.onToolStart?.({ id: event.content_block.id, name: event.content_block.name })
      } else if (event.type === 'content_block_delta') {
        if (event.delta.type === 'text_delta') observer?.onText?.(event.delta.text)
        else if (event.delta.type === 'input_json_delta') {
          const id = toolIds.get(event.index)
          if (id !== undefined) observer?.onToolInput?.(id, event.delta.partial_json)
        }
      }
    }
    // The SDK's stream ends quietly when aborted: a stopped turn must not pass for a whole one.
    if (request.signal?.aborted) throw new APIUserAbortError()
    return assembly.finish()
  }
}
