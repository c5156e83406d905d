import { createInterface } from 'node:readline/promises'
import { readMcpConfiguration } from '../main/runtime/mcp/config'
import { McpTrustStore } from '../main/runtime/mcp/trust'
import type { McpOptions } from '../main/runtime/mcp/servers'
import { TeamPaths } from '../main/runtime/team-paths'
import { oneLine, visibleText, writeLine, type Output } from './output'

/** Asks one question on the terminal; null when there is no terminal to ask on. */
export type Ask = (question: string) => Promise<string | null>

export const askOnTerminal: Ask = async (question) => {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return null
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return await terminal.question(question)
  } finally {
    terminal.close()
  }
}

export interface TrustRequest {
  readonly workspace: string
  readonly configDirectory: string
  /** `--trust-workspace`. */
  readonly trustForRun: boolean
  readonly output: Output
  readonly env?: NodeJS.ProcessEnv
  readonly ask?: Ask
  /** Where else the person can answer (serve: the window); said when the CLI cannot ask. */
  readonly elsewhere?: string
}

/**
 * Whether this run's MCP servers start (`chat`, `demo`, `serve`): trusted before for this
 * content of the files, trusted for this run by `--trust-workspace`, or asked on the terminal
 * (a yes is remembered). Without a terminal and without the flag they stay off, and it says why.
 */
export async function mcpOptionsForRun(request: TrustRequest): Promise<McpOptions> {
  const env = request.env ?? process.env
  const trustStore = new McpTrustStore(request.configDirectory)
  const options: McpOptions = { trustStore, env, trustForRun: request.trustForRun }
  const paths = new TeamPaths(request.workspace)
  const configuration = readMcpConfiguration(paths, env)
  const hash = configuration.contentHash
  if (hash === null || request.trustForRun || trustStore.isTrusted(paths.workspace, hash))
    return options
  // The repository wrote these names and commands: an escape sequence in them could show the
  // person another command than the one a yes would start.
  const listing = configuration.servers
    .map((server) => `  ${oneLine(server.name)}: ${oneLine(server.target || server.problem || '')}`)
    .join('\n')
  const answer = await (request.ask ?? askOnTerminal)(
    visibleText(
      `This workspace's MCP servers run programs on your computer:\n${listing}\nTrust ${paths.workspace} and start them? [y/N] `,
    ),
  )
  if (answer === null) {
    await writeLine(
      request.output.stderr,
      `agent-teams: the MCP servers of ${paths.workspace} are off: they are not trusted yet, and there is no terminal to ask on. Run with --trust-workspace to start them for this run${request.elsewhere ? `, or ${request.elsewhere}` : ''}.`,
    )
    return options
  }
  if (/^\s*y(es)?\s*$/i.test(answer)) {
    trustStore.remember(paths.workspace, hash)
    return options
  }
  await writeLine(request.output.stderr, 'agent-teams: the MCP servers stay off for this run.')
  return options
}
