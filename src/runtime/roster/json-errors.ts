/** Line and column (1-based) of a JSON.parse error, from the position V8 puts in its message. */
export function describeJsonError(
  text: string,
  error: Error,
): { line: number; column: number; message: string } {
  const message = error.message
  const lineColumn = /line (\d+) column (\d+)/.exec(message)
  if (lineColumn)
    return {
      line: Number(lineColumn[1]),
      column: Number(lineColumn[2]),
      message: stripWhere(message),
    }
  const position = /position (\d+)/.exec(message)
  const index = position ? Number(position[1]) : text.length
  return { ...lineAndColumn(text, index), message: stripWhere(message) }
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
 * The index in `text` (valid JSON) where the value at `path` starts, found by walking the text
 * itself, so that a schema problem can be shown at its line and column. Undefined if absent.
 */
export function findJsonPath(text: string, path: readonly (string | number)[]): number | undefined {
  let index = 0
  const skipSpace = (): void => {
    while (index < text.length && /\s/.test(text[index] ?? '')) index++
  }
  const skipString = (): string => {
    const start = index
    index++
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1
    index++
    return JSON.parse(text.slice(start, index)) as string
  }
  const skipValue = (): void => {
    skipSpace()
    const char = text[index]
    if (char === '"') {
      skipString()
      return
    }
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']'
      index++
      skipSpace()
      if (text[index] === close) {
        index++
        return
      }
      for (;;) {
        if (close === '}') {
          skipSpace()
          skipString()
          skipSpace()
          index++ // the colon
        }
        skipValue()
        skipSpace()
        if (text[index++] === close) return
      }
    }
    while (index < text.length && !/[\s,\]}]/.test(text[index] ?? '')) index++
  }
  for (const part of path) {
    skipSpace()
    const char = text[index]
    if (typeof part === 'number' && char === '[') {
      index++
      for (let item = 0; item < part; item++) {
        skipValue()
        skipSpace()
        if (text[index++] !== ',') return undefined
      }
    } else if (typeof part === 'string' && char === '{') {
      index++
      for (;;) {
        skipSpace()
        if (text[index] !== '"') return undefined
        const key = skipString()
        skipSpace()
        index++ // the colon
        if (key === part) break
        skipValue()
        skipSpace()
        if (text[index++] !== ',') return undefined
      }
    } else {
      return undefined
    }
  }
  skipSpace()
  return index
}
