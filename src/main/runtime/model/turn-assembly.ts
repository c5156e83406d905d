import { partialParse } from '@anthropic-ai/sdk/_vendor/partial-json-parser/parser.mjs'
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { AssistantBlock, Usage } from '../../../shared/transcript'

/** One model turn as the runtime records it. */
export interface AssembledTurn {
  readonly message_id: string
  readonly model: string
  readonly content: AssistantBlock[]
  readonly stop_reason: string | null
  readonly usage: Usage
}

/** A stream that does not add up to a whole message: the turn is asked for again, never kept. */
export class IncompleteStream extends Error {
  override readonly name = 'IncompleteStream'
}

type Block = Record<string, unknown> & { type: string }

/**
 * Folds the raw events of one streamed message into the turn they describe, as the SDK's
 * MessageStream does, without its snapshots and partial-JSON parses on every delta (those cost
 * the runtime about half a millisecond a turn): text is joined, tool input JSON is parsed once at
 * the block's end, usage is taken as the API reports it. `finish` refuses a message that never
 * ended.
 */
export class TurnAssembly {
  private id: string | null = null
  private model = ''
  private stopReason: string | null = null
  private usage: Usage = { input_tokens: 0, output_tokens: 0 }
  private readonly blocks: Block[] = []
  private readonly inputJson = new Map<number, string>()
  private stopped = false

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        if (this.id !== null) throw new IncompleteStream('a second message_start in one stream')
        this.id = event.message.id
        this.model = event.message.model
        this.usage = {
          input_tokens: event.message.usage.input_tokens,
          output_tokens: event.message.usage.output_tokens,
        }
        return
      case 'content_block_start':
        this.blocks[event.index] = { ...(event.content_block as unknown as Block) }
        return
      case 'content_block_delta':
        return this.addDelta(event.index, event.delta)
      case 'content_block_stop':
        return this.endBlock(event.index)
      case 'message_delta':
        this.stopReason = event.delta.stop_reason
        this.usage = {
          // Totals for the whole message, sent when they apply: overwritten, never added.
          input_tokens: event.usage.input_tokens ?? this.usage.input_tokens,
          output_tokens: event.usage.output_tokens,
        }
        return
      case 'message_stop':
        this.stopped = true
        return
    }
  }

  finish(): AssembledTurn {
    if (this.id === null || !this.stopped)
      throw new IncompleteStream('the stream ended before the message did')
    return {
      message_id: this.id,
      model: this.model,
      content: this.blocks.filter((block) => block !== undefined).map(normalizeBlock),
      stop_reason: this.stopReason,
      usage: this.usage,
    }
  }

  private addDelta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): void {
    const block = this.blocks[index]
    if (block === undefined) return
    switch (delta.type) {
      case 'text_delta':
        block.text = `${(block.text as string | undefined) ?? ''}${delta.text}`
        return
      case 'input_json_delta':
        this.inputJson.set(index, `${this.inputJson.get(index) ?? ''}${delta.partial_json}`)
        return
      case 'citations_delta':
        block.citations = [...((block.citations as unknown[] | undefined) ?? []), delta.citation]
        return
      case 'thinking_delta':
        block.thinking = `${(block.thinking as string | undefined) ?? ''}${delta.thinking}`
        return
      case 'signature_delta':
        block.signature = delta.signature
        return
    }
  }

  private endBlock(index: number): void {
    const block = this.blocks[index]
    const json = this.inputJson.get(index)
    if (block === undefined || json === undefined || json === '') return
    block.input = parseInput(json)
  }
}

/**
 * A tool call's input. The API sends whole JSON unless the reply hit max_tokens inside the call:
 * then the input is what could be read of it (as the SDK's MessageStream does), the turn is kept
 * with its stop_reason, and the agent answers that call without running it.
 */
function parseInput(json: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    try {
      value = partialParse(json)
    } catch {
      value = {}
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

/** Keeps what the API needs back from each block, and nothing added for display. */
function normalizeBlock(block: Block): AssistantBlock {
  if (block.type === 'text') return { type: 'text', text: (block.text as string | undefined) ?? '' }
  if (block.type === 'tool_use')
    return {
      type: 'tool_use',
      id: block.id as string,
      name: block.name as string,
      input: (block.input ?? {}) as Record<string, unknown>,
    }
  return { ...block }
}
