import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TeamError } from '../shared/errors'
import { AppService } from '../app/app-service'
import { settingsPath } from '../runtime/model/config'
import { faultAlert, installProcessGuard, type ProcessFault } from '../runtime/system/process-guard'
import { onStopSignals, type StopSignals } from '../runtime/system/stop-signals'
import { plainFileSecretStore } from '../runtime/secrets/secrets'
import type { CommandContext } from './commands'
import { trustOptionsForRun, type Ask } from './workspace-trust'
import { UsageError, writeLine } from './output'
import { startBrowserServer, type BrowserServer } from '../server/browser-server'

/** The built renderer, next to the sources: `<repo>/out/renderer`. */
export const DEFAULT_STATIC_DIRECTORY = fileURLToPath(
  new URL('../../out/renderer/', import.meta.url),
)

export interface ServeDependencies {
  /** The environment (model settings, XDG_CONFIG_HOME); default process.env. */
  readonly env?: NodeJS.ProcessEnv
  readonly staticDirectory?: string
  /**
   * Resolves when the server should stop; default: the first SIGINT or SIGTERM (a second one
   * then ends the process at once; see stop-signals.ts).
   */
  readonly untilStopped?: () => Promise<void>
  /** How the trust question is asked (default: on the terminal, if there is one). */
  readonly ask?: Ask
  /** Told the running server, for tests. */
  readonly onListening?: (server: BrowserServer) => void
}

/** `--port`: 1–65535, or 0 (as when it is left out) for any free port, the usual convention. */
export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(
      `--port takes a whole number from 1 to 65535, or 0 for any free port, not "${value}"`,
    )
  return port
}

function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8')
  const version = (JSON.parse(text) as { version?: unknown }).version
  return typeof version === 'string' && version.length > 0 ? version : '0.0.0'
}

function startFailure(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE')
    return new TeamError(
      'io',
      `Port ${port} on 127.0.0.1 is already in use; choose another with --port, or leave --port out to get a free one.`,
    )
  if (code === 'EACCES')
    return new TeamError(
      'io',
      `Port ${port} needs privileges this user lacks; choose one above 1023.`,
    )
  return error
}

/** Checks the command line and the build, asks about MCP trust, and makes the service. */
async function makeService(
  context: CommandContext,
  dependencies: ServeDependencies,
): Promise<{ service: AppService; port: number; staticDirectory: string }> {
  if (context.positionals.length > 0)
    throw new UsageError(`takes no arguments (got "${context.positionals.join(' ')}")`)
  const port = parsePort(context.options.port)
  const staticDirectory = dependencies.staticDirectory ?? DEFAULT_STATIC_DIRECTORY
  if (!existsSync(join(staticDirectory, 'index.html')))
    throw new TeamError(
      'ui-not-built',
      `Build the UI first: npm run build (there is no index.html in ${staticDirectory}).`,
    )
  const env = dependencies.env ?? process.env
  const configDirectory = dirname(settingsPath(env))
  const trust = await trustOptionsForRun({
    workspace: context.options.workspace,
    configDirectory,
    trustForRun: context.options.trustWorkspace,
    output: context.output,
    env,
    ask: dependencies.ask,
    elsewhere: 'answer in the window',
  })
  const service = await AppService.create({
    trustWorkspace: trust.forRun === true,
    mode: 'browser',
    version: packageVersion(),
    configDirectory,
    secrets: plainFileSecretStore(join(configDirectory, 'settings.json')),
    env,
  })
  return { service, port, staticDirectory }
}

/**
 * `agent-teams serve [--workspace DIR] [--port N]`: the runtime headless, the renderer over
 * http://127.0.0.1:PORT and the contract over its WebSocket, until Ctrl+C.
 */
export function createServeCommand(
  dependencies: ServeDependencies = {},
): (context: CommandContext) => Promise<number> {
  return async (context) => {
    const { service, port, staticDirectory } = await makeService(context, dependencies)
    let server: BrowserServer | null = null
    // Listening until the service is closed: a second signal while it closes ends the process.
    let signals: StopSignals | undefined
    const untilStopped =
      dependencies.untilStopped ??
      (() => new Promise<void>((resolve) => (signals = onStopSignals(() => resolve()))))
    // One bug must not take the whole team down: logged, shown in the UI, and serving goes on.
    const guard = installProcessGuard((fault) => reportFault(context, service, fault))
    try {
      // Opened here rather than by create(), so that a workspace that cannot be opened (busy in
      // another process, missing) still gets the service closed: what create() started before
      // failing would otherwise keep this process alive.
      await service.execute('openWorkspace', { path: context.options.workspace })
      server = await startBrowserServer({
        service,
        port,
        staticDirectory,
        reportInternal: (command, error) => {
          void writeLine(
            context.output.stderr,
            `agent-teams serve: ${command} failed: ${(error as Error).stack ?? String(error)}`,
          )
        },
      }).catch((error: unknown) => {
        throw startFailure(error, port)
      })
      const stopped = untilStopped()
      // The address names the port actually taken (the one chosen when --port was 0 or absent).
      await writeLine(
        context.output.stdout,
        `Agent Teams is running at ${server.url} (port ${server.port})`,
      )
      await writeLine(context.output.stdout, 'Open it in a browser; press Ctrl+C to stop.')
      dependencies.onListening?.(server)
      await stopped
      return 0
    } finally {
      await server?.close()
      await service.close()
      guard.dispose()
      signals?.dispose()
    }
  }
}

/** A fault the process guard caught: on stderr for the operator, as a team alert for the UI. */
function reportFault(context: CommandContext, service: AppService, fault: ProcessFault): void {
  void writeLine(
    context.output.stderr,
    `agent-teams serve: internal error (${fault.origin}): ${fault.detail}`,
  )
  service.currentHost?.team.publish(faultAlert(fault))
}

export const serve = createServeCommand()
