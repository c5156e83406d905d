import {
  findNodeAtLocation,
  parse,
  parseTree,
  printParseErrorCode,
  type ParseError,
} from 'jsonc-parser'

/**
 * Where `text` stops being JSON, as line and column (1-based), with JSON.parse's own words for
 * why (`error`). The place comes from jsonc-parser read as strict JSON (no comments, no trailing
 * commas), not from the position V8 writes into its message, whose wording varies by version.
 */
export function describeJsonError(
  text: string,
  error: Error,
): { line: number; column: number; message: string } {
  return { ...lineAndColumn(text, errorOffset(text)), message: stripWhere(error.message) }
}

/** Errors about a token cut short point at where it stops, as JSON.parse's do. */
const CUT_SHORT: ReadonlySet<string> = new Set([
  'UnexpectedEndOfString',
  'UnexpectedEndOfComment',
  'UnexpectedEndOfNumber',
])

function errorOffset(text: string): number {
  const errors: ParseError[] = []
  parse(text, errors, { disallowComments: true, allowTrailingComma: false })
  const [first] = errors
  // JSON.parse refused what a strict reading accepts (a nesting too deep): the end of the text.
  if (first === undefined) return text.length
  return CUT_SHORT.has(printParseErrorCode(first.error))
    ? first.offset + first.length
    : first.offset
}

function stripWhere(message: string): string {
  return message
    .replace(/\s*(in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)/, '')
}

export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index)
  const line = before.split('\n').length
  const column = index - before.lastIndexOf('\n')
  return { line, column }
}

/**
 * The index in `text` (valid JSON) where the value at `path` starts, so that a schema problem can
 * be shown at its line and column. Undefined if absent.
 */
export function findJsonPath(text: string, path: readonly (string | number)[]): number | undefined {
  const tree = parseTree(text)
  if (tree === undefined) return undefined
  return findNodeAtLocation(tree, [...path])?.offset
}
