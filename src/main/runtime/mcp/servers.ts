import { TeamError } from '../../../shared/errors'
import type { McpServerInput, McpState, McpTrust } from '../../../shared/mcp'
import type { TeamPaths } from '../team-paths'
import type { Tool } from '../tools/types'
import { readMcpConfiguration, type McpConfiguration } from './config'
import { DEFAULT_CONNECTION_POLICY, McpConnection, type ConnectionPolicy } from './connection'
import { mcpTool } from './mcp-tool'
import { addTeamServer, removeTeamServer } from './team-file'
import type { McpTrustStore } from './trust'

export interface McpOptions {
  /** Where trust is remembered; null remembers nothing (the servers then need `trustForRun`). */
  readonly trustStore: McpTrustStore | null
  /** `--trust-workspace`: start the servers this run without asking or remembering. */
  readonly trustForRun?: boolean
  /** Where `${VAR}` comes from (default: this process's environment). */
  readonly env?: NodeJS.ProcessEnv
  readonly policy?: Partial<ConnectionPolicy>
}

/** How often at most the state is published while servers write to stderr. */
const PUBLISH_AFTER_MS = 100

/**
 * A team's MCP servers: read from `.mcp.json` and `.team/mcp.json`, started once trusted, their
 * tools offered to the agents allowed to use them, stopped with the team.
 */
export class McpServers {
  private configuration: McpConfiguration = { servers: [], problems: [], contentHash: null }
  private connections: McpConnection[] = []
  private trust: McpTrust = 'none'
  private publishTimer: ReturnType<typeof setTimeout> | null = null
  private published = ''
  private closed = false
  private readonly policy: ConnectionPolicy

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: McpOptions,
    private readonly publish: (state: McpState) => void,
  ) {
    this.policy = { ...DEFAULT_CONNECTION_POLICY, ...options.policy }
  }

  /** Reads the configuration and starts the servers if the person trusts this content. */
  open(): void {
    this.load()
    // The snapshot a window opens with carries this state: only changes are published.
    this.published = JSON.stringify(this.state())
  }

  state(): McpState {
    return {
      trust: this.trust,
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
        'invalid-argument',
        `No MCP server ${unknown.map((server) => `"${server}"`).join(', ')} in this workspace; ${known.length === 0 ? 'it has none' : `it has ${known.join(', ')}`}.`,
      )
  }

  /** Adds a server to `.team/mcp.json` and starts it (when the workspace is trusted). */
  async add(name: string, input: McpServerInput): Promise<void> {
    addTeamServer(this.paths, name, input)
    await this.reload()
  }

  async remove(name: string): Promise<void> {
    removeTeamServer(this.paths, name)
    await this.reload()
  }

  /** The person trusts the servers (remembered unless `remember` is false) and they start. */
  trustServers(remember: boolean): void {
    const hash = this.configuration.contentHash
    if (hash === null || this.closed) return
    if (remember) this.options.trustStore?.remember(this.paths.workspace, hash)
    this.trust = 'trusted'
    this.startAll()
    this.changed()
  }

  /** The person said no: the servers stay off for this session. */
  declineServers(): void {
    if (this.trust !== 'ask') return
    this.trust = 'declined'
    this.changed()
  }

  /**
   * The files changed through the app (a server added or removed by the person): servers read
   * again; a trust given to the old content carries over, since the person made the change.
   */
  async reload(): Promise<void> {
    // No server before means nothing to distrust: the person's own first server is trusted.
    const wasTrusted = this.trust === 'trusted' || this.trust === 'none'
    await this.stopAll()
    this.load()
    if (wasTrusted && this.trust === 'ask') this.trustServers(!this.options.trustForRun)
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
        }),
    )
    const hash = this.configuration.contentHash
    this.trust =
      hash === null
        ? 'none'
        : this.options.trustForRun === true ||
            this.options.trustStore?.isTrusted(this.paths.workspace, hash) === true
          ? 'trusted'
          : 'ask'
    if (this.trust === 'trusted') this.startAll()
    this.changed()
  }

  private startAll(): void {
    for (const connection of this.connections) connection.start()
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
