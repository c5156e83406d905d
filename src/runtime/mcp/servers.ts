import { TeamError } from '../../shared/errors'
import type { McpServerInput, McpState } from '../../shared/mcp'
import type { BlockedAction } from '../../shared/sandbox'
import { UNTRUSTED_NOTE } from '../../shared/trust'
import type { TeamPaths } from '../team/paths'
import type { Tool } from '../tools/types'
import type { TrustGate } from '../trust/workspace-trust'
import { readMcpConfiguration, type McpConfiguration } from './config'
import { DEFAULT_CONNECTION_POLICY, McpConnection, type ConnectionPolicy } from './connection'
import { mcpTool } from './mcp-tool'
import type { McpSandboxContext } from './sandboxed-launch'
import { addTeamServer, removeTeamServer } from './team-file'

export interface McpOptions {
  /** Where `${VAR}` comes from (default: this process's environment). */
  readonly env?: NodeJS.ProcessEnv
  readonly policy?: Partial<ConnectionPolicy>
}

/** Where the team's servers run and whom they tell what the sandbox blocked. */
export interface McpLaunch {
  readonly stdio: McpSandboxContext
  readonly onBlocked?: (agent: string, actions: readonly BlockedAction[]) => void
}

/** How often at most the state is published while servers write to stderr. */
const PUBLISH_AFTER_MS = 100

const NOT_TRUSTED = `Not started: ${UNTRUSTED_NOTE}.`

/**
 * A team's MCP servers: read from `.mcp.json` and `.team/mcp.json`, started while the workspace
 * is trusted (in the OS sandbox, where there is one), their tools offered to the agents allowed
 * to use them, stopped when the trust stops holding and with the team.
 */
export class McpServers {
  private configuration: McpConfiguration = { servers: [], problems: [] }
  private connections: McpConnection[] = []
  private publishTimer: ReturnType<typeof setTimeout> | null = null
  private published = ''
  private closed = false
  private readonly policy: ConnectionPolicy

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: McpOptions,
    private readonly trust: TrustGate,
    private readonly launch: McpLaunch,
    private readonly publish: (state: McpState) => void,
  ) {
    this.policy = { ...DEFAULT_CONNECTION_POLICY, ...options.policy }
  }

  /** Reads the configuration and starts the servers if the workspace is trusted. */
  open(): void {
    this.load()
    // The snapshot a window opens with carries this state: only changes are published.
    this.published = JSON.stringify(this.state())
  }

  state(): McpState {
    return {
      servers: this.connections.map((connection) => connection.view()),
      problems: [...this.configuration.problems],
    }
  }

  /** The names of every configured server, started or not (a spawn's choice is checked on them). */
  serverNames(): string[] {
    return this.configuration.servers.map((server) => server.name)
  }

  /** Refuses a spawn's choice of servers that this workspace does not have (a typo). */
  assertKnown(servers: readonly string[] | null | undefined): void {
    const known = this.serverNames()
    const unknown = (servers ?? []).filter((server) => !known.includes(server))
    if (unknown.length > 0)
      throw new TeamError(
        'not-found',
        `No MCP server ${unknown.map((server) => `"${server}"`).join(', ')} in this workspace; ${known.length === 0 ? 'it has none' : `it has ${known.join(', ')}`}.`,
      )
  }

  /** The person adds a server to `.team/mcp.json`: a trusted workspace stays trusted. */
  async add(name: string, input: McpServerInput): Promise<void> {
    this.trust.keep(() => addTeamServer(this.paths, name, input))
    await this.reload()
  }

  async remove(name: string): Promise<void> {
    this.trust.keep(() => removeTeamServer(this.paths, name))
    await this.reload()
  }

  /** The workspace's trust began or stopped holding: the servers follow it. */
  async trustChanged(): Promise<void> {
    if (this.closed) return
    if (this.trust.isTrusted()) {
      for (const connection of this.connections) connection.start()
      return
    }
    // Running servers were agreed to as they were; what changed is not: they stop.
    if (this.connections.some((connection) => connection.view().status !== 'off'))
      await this.reload()
    else for (const connection of this.connections) connection.hold(NOT_TRUSTED)
  }

  /** The servers read again and started anew (after the person's change, or a loss of trust). */
  async reload(): Promise<void> {
    await this.stopAll()
    if (!this.closed) this.load()
  }

  /** The tools of running servers that `allowed` lets the agent use. */
  tools(allowed: (server: string) => boolean): Tool[] {
    return this.connections
      .filter((connection) => allowed(connection.name))
      .flatMap((connection) => connection.tools.flatMap((info) => mcpTool(connection, info) ?? []))
  }

  /** Servers still starting finish first, so that an agent's first call already has their tools. */
  async whenStarted(signal: AbortSignal): Promise<void> {
    const starting = this.connections.filter((connection) => connection.isStarting)
    if (starting.length === 0) return
    await new Promise<void>((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done)
        resolve()
      }
      signal.addEventListener('abort', done, { once: true })
      void Promise.all(starting.map((connection) => connection.whenStarted())).then(done)
    })
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.publishTimer) clearTimeout(this.publishTimer)
    this.publishTimer = null
    await this.stopAll()
  }

  private load(): void {
    const env = this.options.env ?? process.env
    this.configuration = readMcpConfiguration(this.paths, env)
    this.connections = this.configuration.servers.map(
      (server) =>
        new McpConnection(server, {
          workspace: this.paths.workspace,
          policy: this.policy,
          onChange: () => this.changed(),
          mayStart: () => (this.trust.isTrusted() ? null : NOT_TRUSTED),
          stdio: this.launch.stdio,
          onBlocked: this.launch.onBlocked,
        }),
    )
    const trusted = this.trust.isTrusted()
    for (const connection of this.connections)
      if (trusted) connection.start()
      else connection.hold(NOT_TRUSTED)
    this.changed()
  }

  private async stopAll(): Promise<void> {
    const connections = this.connections
    this.connections = []
    await Promise.all(connections.map((connection) => connection.close()))
  }

  private changed(): void {
    if (this.closed || this.publishTimer) return
    this.publishTimer = setTimeout(() => {
      this.publishTimer = null
      const state = this.state()
      const text = JSON.stringify(state)
      if (this.closed || text === this.published) return
      this.published = text
      this.publish(state)
    }, PUBLISH_AFTER_MS)
  }
}
