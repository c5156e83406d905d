/**
 * Bounds on the shape of JSON that comes from outside (a mailbox line, a control line, a
 * WebSocket frame). JSON.parse itself copes with any nesting, but what later walks the value
 * recursively does not: JSON.stringify of an array nested 6,000 deep overflows the stack, and a
 * 10 MB frame of nested arrays held the event loop for seconds. So depth is bounded where input
 * is judged, before anything recursive sees it.
 */

/** The deepest nesting an extra field of a mailbox line, or a request frame, may have. */
export const MAX_JSON_DEPTH = 32
/** The most values (objects, arrays, strings, numbers, …) the extra fields of one line may hold. */
export const MAX_EXTRA_VALUES = 10_000

/** What a value exceeds: its nesting, or its number of values. */
export type ShapeExcess = { readonly kind: 'depth' | 'values'; readonly limit: number }

/**
 * Whether `value` is nested deeper than `maxDepth` (the value itself is depth 1) or holds more
 * than `maxValues` values; null when it does neither. Walks with its own stack, so that no input
 * can overflow the call stack here, and stops at the first excess.
 */
export function jsonShapeProblem(
  value: unknown,
  limits: { readonly maxDepth: number; readonly maxValues: number },
): ShapeExcess | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  let values = 0
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number }
    values++
    if (values > limits.maxValues) return { kind: 'values', limit: limits.maxValues }
    if (typeof item.value !== 'object' || item.value === null) continue
    if (item.depth > limits.maxDepth) return { kind: 'depth', limit: limits.maxDepth }
    const children = Array.isArray(item.value)
      ? (item.value as unknown[])
      : Object.values(item.value as object)
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 })
  }
  return null
}

/**
 * Whether the JSON text nests objects and arrays deeper than `maxDepth`, found by counting
 * brackets outside strings: one pass over the text, no allocation, run before JSON.parse so that
 * a deep document is refused before it is built. Text that is not JSON may give any answer; the
 * parser judges that afterwards.
 */
export function jsonTextTooDeep(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 92 /* \ */) index++
      else if (code === 34 /* " */) inString = false
    } else if (code === 34) inString = true
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > maxDepth) return true
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--
  }
  return false
}
