/**
 * The offline server's view of a prompt as the API bills it: a sequence of parts (each tool, each
 * system block, each message block, in the API's order tools → system → messages), each with a
 * deterministic token estimate, and the parts after which a `cache_control` mark sits.
 */
import { createHash, type Hash } from 'node:crypto'
import { estimateTokens } from '../shared/token-estimate'
import type { ModelRequest } from './script'

export interface PromptPart {
  /** What identifies the part in a cached prefix: its content without the mark, and its place. */
  readonly key: string
  readonly tokens: number
  readonly breakpoint: boolean
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function part(place: string, value: unknown): PromptPart {
  const breakpoint = isRecord(value) && value.cache_control !== undefined
  const content = isRecord(value) ? { ...value, cache_control: undefined } : value
  const key = `${place}:${JSON.stringify(content)}`
  return { key, tokens: estimateTokens(content), breakpoint }
}

/** Every part of the prompt, in order. */
export function promptParts(request: ModelRequest): PromptPart[] {
  const parts: PromptPart[] = []
  for (const tool of request.tools ?? []) parts.push(part('tool', tool))
  const system = request.system
  if (typeof system === 'string' && system !== '') parts.push(part('system', system))
  if (Array.isArray(system)) for (const block of system) parts.push(part('system', block))
  request.messages.forEach((message, index) => {
    if (!isRecord(message)) return
    const place = `${index}:${String(message.role)}`
    const content = message.content
    if (typeof content === 'string') parts.push(part(place, content))
    else if (Array.isArray(content)) for (const block of content) parts.push(part(place, block))
  })
  return parts
}

/** The prompt's size in tokens: the figure count_tokens answers and the window is held to. */
export function promptTokens(parts: readonly PromptPart[]): number {
  return parts.reduce((sum, each) => sum + each.tokens, 0)
}

/** A prefix of the prompt ending at a mark: its identity (for the cache) and its size. */
export interface MarkedPrefix {
  readonly digest: string
  readonly tokens: number
}

/** The prefixes ending at each mark, in order; the model is part of each prefix's identity. */
export function markedPrefixes(model: string, parts: readonly PromptPart[]): MarkedPrefix[] {
  const hash: Hash = createHash('sha256').update(model)
  const prefixes: MarkedPrefix[] = []
  let tokens = 0
  for (const each of parts) {
    hash.update('\u0000').update(each.key)
    tokens += each.tokens
    if (each.breakpoint) prefixes.push({ digest: hash.copy().digest('hex'), tokens })
  }
  return prefixes
}
