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
