/**
 * Extended thinking as the API enforces it. A request with `thinking: {type: 'enabled'}` (or `'adaptive'`) gets a
 * thinking block with a signature first in its reply. The signature is an HMAC of the thinking
 * text under a key of this server, so a block sent back with its text or signature altered is
 * refused; and while the conversation's last assistant turn ended in tool use, that turn must
 * be sent back with the thinking blocks it came with, unchanged, as the API requires. A
 * `redacted_thinking` block's `data` is signed the same way, so it too must come back as it was.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { RequestRefusal } from './requests'
import type { ModelRequest, Turn } from './script'
import type { ResolvedBlock } from './sse'

type Block = Record<string, unknown> & { type: string }

const DEFAULT_THOUGHT = 'Weighing the request against what the conversation holds so far.'

/** The API's lower bound on a thinking budget. */
const MIN_BUDGET = 1024

function refuse(message: string): never {
  throw new RequestRefusal(400, 'invalid_request_error', message)
}

function blocksOf(message: unknown): Block[] {
  const content = (message as { content?: unknown }).content
  return Array.isArray(content) ? (content as Block[]) : []
}

export class ThinkingSigner {
  readonly #key = randomBytes(32)

  /** Whether the request asks for thinking; throws a 400 for a malformed `thinking`. */
  requested(request: ModelRequest): boolean {
    const thinking = request.thinking as { type?: unknown; budget_tokens?: unknown } | undefined
    if (thinking === undefined || thinking.type === 'disabled') return false
    // Adaptive thinking (the model decides how much; Claude Code asks for it) has no budget.
    if (thinking.type === 'adaptive') return true
    if (thinking.type !== 'enabled')
      refuse('thinking.type: Input should be "enabled", "adaptive" or "disabled"')
    const budget = thinking.budget_tokens
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MIN_BUDGET)
      refuse(
        `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`,
      )
    if (request.max_tokens <= budget)
      refuse('`max_tokens` must be greater than `thinking.budget_tokens`.')
    return true
  }

  /** The signed thinking blocks that open a reply to a request that asked for thinking. */
  blocks(turn: Pick<Turn, 'thinking' | 'redactedThinking'>): ResolvedBlock[] {
    const thought = turn.thinking ?? DEFAULT_THOUGHT
    const blocks: ResolvedBlock[] = [
      { type: 'thinking', thinking: thought, signature: this.#sign(thought) },
    ]
    if (turn.redactedThinking === true) {
      // Opaque to the client, as the API's encrypted thinking is.
      const payload = randomBytes(24).toString('base64')
      blocks.push({ type: 'redacted_thinking', data: `${payload}.${this.#sign(payload)}` })
    }
    return blocks
  }

  /**
   * Checks every thinking block sent back, and, with thinking on, that a last assistant turn
   * ending in tool use still opens with its thinking. Throws a 400 in the API's words.
   */
  check(request: ModelRequest, thinkingOn: boolean): void {
    request.messages.forEach((message, index) => {
      blocksOf(message).forEach((block, blockIndex) => {
        if (block.type === 'redacted_thinking' && !this.#verifyRedacted(block.data))
          refuse(
            `messages.${index}.content.${blockIndex}: Invalid \`data\` in \`redacted_thinking\` block`,
          )
        if (block.type !== 'thinking') return
        if (typeof block.thinking !== 'string' || !this.#verify(block.thinking, block.signature))
          refuse(
            `messages.${index}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block`,
          )
      })
    })
    if (thinkingOn) this.#checkLastAssistant(request.messages)
  }

  #checkLastAssistant(messages: readonly unknown[]): void {
    let index = messages.length - 1
    while (index >= 0 && (messages[index] as { role?: unknown }).role !== 'assistant') index--
    if (index < 0) return
    const blocks = blocksOf(messages[index])
    if (!blocks.some((block) => block.type === 'tool_use')) return
    const first = blocks[0]
    if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return
    refuse(
      `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type ?? 'nothing'}\`. ` +
        'When `thinking` is enabled, a final `assistant` message must start with a thinking block ' +
        '(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you ' +
        'include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.',
    )
  }

  #sign(thought: string): string {
    return createHmac('sha256', this.#key).update(thought).digest('base64')
  }

  #verifyRedacted(data: unknown): boolean {
    if (typeof data !== 'string') return false
    const dot = data.indexOf('.')
    return dot > 0 && this.#verify(data.slice(0, dot), data.slice(dot + 1))
  }

  #verify(thought: string, signature: unknown): boolean {
    if (typeof signature !== 'string') return false
    const expected = Buffer.from(this.#sign(thought))
    const given = Buffer.from(signature)
    return expected.length === given.length && timingSafeEqual(expected, given)
  }
}
