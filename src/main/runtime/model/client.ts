import Anthropic from '@anthropic-ai/sdk'
import type { MessageParam, Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import type { AssistantBlock, Usage } from '../../../shared/transcript'
import { createNodeFetch } from './node-fetch'

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

export interface ModelTurn {
  readonly message_id: string
  readonly model: string
  readonly content: AssistantBlock[]
  readonly stop_reason: string | null
  readonly usage: Usage
}

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
      fetch: createNodeFetch(),
    })
  }

  async turn(request: TurnRequest): Promise<ModelTurn> {
    const stream = this.client.messages.stream(
      {
        model: request.model ?? this.endpoint.model,
        max_tokens: this.endpoint.maxTokens ?? 8000,
        system: request.system,
        messages: request.messages,
        tools: [...request.tools],
      },
      { headers: { 'x-agent-name': request.agent }, signal: request.signal },
    )
    const observer = request.observer
    const toolIds = new Map<number, string>()
    stream.on('streamEvent', (event) => {
      observer?.onActivity?.()
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
    })
    const message = await stream.finalMessage()
    return {
      message_id: message.id,
      model: message.model,
      content: message.content.map(normalizeBlock),
      stop_reason: message.stop_reason,
      usage: {
        input_tokens: message.usage.input_tokens,
        output_tokens: message.usage.output_tokens,
      },
    }
  }
}

/** Keeps what the API needs back from each block, and nothing the SDK adds for display. */
function normalizeBlock(block: Anthropic.ContentBlock): AssistantBlock {
  if (block.type === 'text') return { type: 'text', text: block.text }
  if (block.type === 'tool_use')
    return { type: 'tool_use', id: block.id, name: block.name, input: block.input }
  return { ...block } as AssistantBlock
}
