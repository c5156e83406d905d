import type { Readable, Writable } from 'node:stream'

/** Where a command writes (and reads an answer from): injected, so that tests run in process. */
export interface Output {
  readonly stdout: Writable
  readonly stderr: Writable
  /** Where a question is answered; asked only when it is a terminal. */
  readonly stdin?: Readable & { readonly isTTY?: boolean }
}

export function writeLine(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(`${text}\n`, (error) => {
      // A reader that went away (`| head`) is not a failure of the command: stop quietly.
      if (error && (error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0)
      if (error) reject(error)
      else resolve()
    })
  })
}

/** A usage mistake: exit code 2, with the help hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
