import { Writable } from 'node:stream'
import type { CommandContext } from '../../src/cli/commands'

/** A stream that keeps what is written to it, for running the CLI in process. */
export class Capture extends Writable {
  private chunks: string[] = []
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString())
    done()
  }
  get text(): string {
    return this.chunks.join('')
  }
  /** The non-empty lines written. */
  get lines(): string[] {
    return this.text.split('\n').filter((line) => line.length > 0)
  }
}

/** A CLI command's context for `workspace` with every option at its default, output captured. */
export function commandContext(
  workspace: string,
  options: Partial<CommandContext['options']> = {},
): { value: CommandContext; stdout: Capture; stderr: Capture } {
  const stdout = new Capture()
  const stderr = new Capture()
  const value: CommandContext = {
    output: { stdout, stderr },
    positionals: [],
    options: {
      workspace,
      workspaceGiven: true,
      json: false,
      all: false,
      reset: false,
      yes: false,
      clear: false,
      planFirst: false,
      trustWorkspace: false,
      ...options,
    },
  }
  return { value, stdout, stderr }
}
