import type { Readable, Writable } from 'node:stream'

/** Where a command writes (and reads an answer from): injected, so that tests run in process. */
export interface Output {
  readonly stdout: Writable
  readonly stderr: Writable
  /** Where a question is answered; asked only when it is a terminal. */
  readonly stdin?: Readable & { readonly isTTY?: boolean }
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

export function writeLine(stream: Writable, text: string): Promise<void> {
  return writeText(stream, `${text}\n`)
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
