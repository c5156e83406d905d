/**
 * Counting a prompt's tokens, for the compaction threshold: the endpoint's own
 * `/v1/messages/count_tokens` where it has one, an estimate from characters otherwise.
 */
import Anthropic from '@anthropic-ai/sdk'
import type { MessageParam, Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import { estimateTokens } from '../../shared/token-estimate'

export interface CountRequest {
  readonly system: string
  readonly messages: readonly MessageParam[]
  readonly tools: readonly ApiTool[]
  readonly model?: string
}

export interface TokenCount {
  readonly tokens: number
  /** True when the figure is our estimate, not the endpoint's count. */
  readonly estimated: boolean
}

/**
 * Endpoints known to have no count_tokens (by base URL), for this process: many
 * Anthropic-compatible endpoints answer 404, and asking again before every call would cost a
 * round trip each time. A new client for the same endpoint keeps the knowledge.
 */
const cannotCount = new Set<string>()

/** Statuses that say the endpoint has no such route, rather than that this call failed. */
const UNSUPPORTED = new Set([404, 405, 501])

export class TokenCounter {
  constructor(
    private readonly client: Anthropic,
    private readonly endpointKey: string,
  ) {}

  async count(request: CountRequest & { model: string }): Promise<TokenCount> {
    if (cannotCount.has(this.endpointKey)) return estimate(request)
    try {
      const result = await this.client.messages.countTokens({
        model: request.model,
        messages: [...request.messages],
        ...(request.system === '' ? {} : { system: request.system }),
        ...(request.tools.length === 0 ? {} : { tools: [...request.tools] }),
      })
      return { tokens: result.input_tokens, estimated: false }
    } catch (error) {
      if (error instanceof Anthropic.APIError && UNSUPPORTED.has(error.status ?? 0))
        cannotCount.add(this.endpointKey)
      // Any other failure (the network, an overload) gets an estimate now and a count next time.
      return estimate(request)
    }
  }
}

/** The estimate, from the same JSON the request would carry. */
export function estimate(request: CountRequest): TokenCount {
  return {
    tokens: estimateTokens({
      system: request.system,
      tools: request.tools,
      messages: request.messages,
    }),
    estimated: true,
  }
}
