import type { Readable, Writable } from 'node:stream'

/** Where a command writes (and reads an answer from): injected, so that tests run in process. */
export interface Output {
  readonly stdout: Writable
  readonly stderr: Writable
  /** Where a question is answered; asked only when it is a terminal. */
  readonly stdin?: Readable & { readonly isTTY?: boolean }
}

/**
 * What a terminal would obey rather than show: C0 controls (ESC starts a sequence that can
 * erase or rewrite what was printed, CR returns to the start of the line), DEL, C1 controls
 * (U+009B is a CSI on many terminals) and the Unicode marks that reorder text (bidirectional
 * overrides, isolates and marks). The tab stays; the newline stays where it is asked to.
 */
const INVISIBLE_BUT_NEWLINE_CLASS = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`
const INVISIBLE = new RegExp(`[\\n${INVISIBLE_BUT_NEWLINE_CLASS}]`, 'g')
const INVISIBLE_BUT_NEWLINE = new RegExp(`[${INVISIBLE_BUT_NEWLINE_CLASS}]`, 'g')

function escaped(character: string): string {
  const code = character.charCodeAt(0)
  if (character === '\n') return '\\n'
  if (character === '\r') return '\\r'
  // From DEL up, the JSON form: a JSON line stays valid JSON, with the same value.
  if (code >= 0x7f) return `\\u${code.toString(16).padStart(4, '0')}`
  return `\\x${code.toString(16).padStart(2, '0')}`
}

/**
 * Text as a terminal shows it without obeying it: every character of INVISIBLE is written as
 * its escape (`\x1b`, `\r`, `\u009b`, `\u202e`), newlines kept. Agents, models, repositories
 * and files choose what the CLI prints, and an escape sequence in it could make a terminal show
 * `npm test` for `rm -rf data`. `writeLine` applies it to everything it writes, JSON included
 * (JSON.stringify has already escaped C0; the rest becomes `\u` escapes, the same JSON value).
 */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE_BUT_NEWLINE, escaped)
}

/** `visibleText` for a field printed on one line (a summary, a name): its newlines escaped too. */
export function oneLine(text: string): string {
  return text.replace(INVISIBLE, escaped)
}

/** Writes `text` as it is; resolves once the stream has taken it. */
export function writeText(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => {
      // A reader that went away (`| head`) is not a failure of the command: stop quietly.
      if (error && (error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0)
      if (error) reject(error)
      else resolve()
    })
  })
}

/** Writes one line (or lines: `text` may hold newlines), made visible (`visibleText`). */
export function writeLine(stream: Writable, text: string): Promise<void> {
  return writeText(stream, `${visibleText(text)}\n`)
}

/** How much of a long output is gathered before it is written. */
const STREAMED_CHUNK = 256 * 1024

/**
 * Writes text made piece by piece (an export) in chunks, each once the stream has taken the one
 * before: a slow pipe or terminal holds the making back, so the memory stays one chunk.
 */
export async function writeStreamed(
  pieces: AsyncIterable<string>,
  write: (chunk: string) => Promise<void> | void,
): Promise<void> {
  let chunk = ''
  for await (const piece of pieces) {
    chunk += piece
    if (chunk.length < STREAMED_CHUNK) continue
    await write(chunk)
    chunk = ''
  }
  if (chunk !== '') await write(chunk)
}

/** A usage mistake: exit code 2, with the help hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
