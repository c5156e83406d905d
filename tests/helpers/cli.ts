import { main } from '../../src/cli/main'
import { Capture } from './streams'

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** stdout's non-empty lines. */
  readonly lines: string[]
}

/** Runs one `agent-teams` command line in process. */
export async function cli(args: readonly string[]): Promise<CliResult> {
  const stdout = new Capture()
  const stderr = new Capture()
  const code = await main(args, { stdout, stderr })
  return { code, stdout: stdout.text, stderr: stderr.text, lines: stdout.lines }
}

/** Parses every stdout line as JSON. */
export function jsonLines(result: CliResult): Record<string, unknown>[] {
  return result.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}
