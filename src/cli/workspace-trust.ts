import { dirname } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { settingsPath } from '../runtime/model/config'
import { TeamPaths } from '../runtime/team/paths'
import { WorkspaceTrustStore } from '../runtime/trust/trust-store'
import { inspectTrust, type TrustOptions } from '../runtime/trust/workspace-trust'
import type { CommandContext } from './commands'
import { describeTrust } from './trust-listing'
import { UsageError, visibleText, writeLine, type Output } from './output'

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

/** The person's trust store: the user's config folder, beside settings.json. */
export function trustStoreFor(env: NodeJS.ProcessEnv = process.env): WorkspaceTrustStore {
  return new WorkspaceTrustStore(dirname(settingsPath(env)))
}

/**
 * How this run (`chat`, `demo`, `serve`) trusts the workspace: as agreed before, for this run
 * by `--trust-workspace`, or by a yes on the terminal to the whole listing (remembered).
 * Without a terminal and without the flag the workspace stays untrusted, and it says why.
 */
export async function trustOptionsForRun(request: TrustRequest): Promise<TrustOptions> {
  const env = request.env ?? process.env
  const store = new WorkspaceTrustStore(request.configDirectory)
  if (request.trustForRun) return { store, forRun: true }
  const paths = new TeamPaths(request.workspace)
  const trust = inspectTrust(paths, { store }, env)
  const view = trust.view()
  if (view.trusted) return { store }
  // Asked straight on the terminal, not through writeLine: shown with its escapes all the same.
  const answer = await (request.ask ?? askOnTerminal)(
    visibleText(
      `${describeTrust(view).join('\n')}\n\nTrust ${paths.workspace} and all of the above? [y/N] `,
    ),
  )
  if (answer === null) {
    await writeLine(
      request.output.stderr,
      `agent-teams: ${paths.workspace} is not trusted, and there is no terminal to ask on: its MCP servers, allowed hosts, "approve always" rules and custom profiles are off, and no agent wakes by itself. See it with "agent-teams trust"; trust it with "agent-teams trust --yes", or for this run with --trust-workspace${request.elsewhere ? `, or ${request.elsewhere}` : ''}.`,
    )
    return { store }
  }
  if (/^\s*y(es)?\s*$/i.test(answer)) {
    trust.trust()
    return { store }
  }
  await writeLine(
    request.output.stderr,
    'agent-teams: the workspace stays untrusted for this run: nothing it grants applies.',
  )
  return { store }
}

/**
 * `agent-teams trust [--json]`: whether the workspace is trusted, and everything it grants
 * (exit 1 when it is not trusted). `--yes`: the person trusts what is there now.
 */
export async function trustCommand(context: CommandContext): Promise<number> {
  if (context.positionals.length > 0)
    throw new UsageError(`takes no arguments (got "${context.positionals.join(' ')}")`)
  const trust = inspectTrust(
    new TeamPaths(context.options.workspace),
    { store: trustStoreFor() },
    process.env,
  )
  const view = context.options.yes ? trust.trust() : trust.view()
  if (context.options.json) await writeLine(context.output.stdout, JSON.stringify(view))
  else {
    const lines = describeTrust(view)
    if (context.options.yes) lines.push('', 'Trusted: a running team applies it at once.')
    else if (!view.trusted)
      lines.push('', 'Trust it with "agent-teams trust --yes" (or answer in the window).')
    await writeLine(context.output.stdout, lines.join('\n'))
  }
  return view.trusted ? 0 : 1
}
