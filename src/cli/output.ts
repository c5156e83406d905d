import type { Writable } from 'node:stream'

/** Where a command writes: injected, so that tests run commands in process. */
export interface Output {
  readonly stdout: Writable
  readonly stderr: Writable
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
