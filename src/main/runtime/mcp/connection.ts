import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  McpError,
  type CallToolResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerView, McpStatus } from '../../../shared/mcp'
import type { ConfiguredServer, ServerLaunch } from './config'

export type { McpToolInfo }

export interface ConnectionPolicy {
  /** How long connecting (starting, the handshake, the tool list) may take. */
  readonly connectTimeoutMs: number
  /** How long one tool call may take before it is answered as timed out. */
  readonly callTimeoutMs: number
  /** The pauses before each restart after a crash; when they run out the server is `failed`. */
  readonly restartDelaysMs: readonly number[]
  /** A connection that lived this long before it was lost starts the back-off afresh. */
  readonly stableAfterMs: number
}

export const DEFAULT_CONNECTION_POLICY: ConnectionPolicy = {
  connectTimeoutMs: 30_000,
  callTimeoutMs: 120_000,
  restartDelaysMs: [1_000, 2_000, 4_000, 8_000, 16_000],
  stableAfterMs: 60_000,
}

const STDERR_LINES = 20
const STDERR_LINE_CHARS = 500

/**
 * One MCP server through the official SDK: started, restarted with back-off when it stops,
 * closed with the team. Its state, tools and the tail of its stderr are what the UI shows.
 */
export class McpConnection {
  private status: McpStatus = 'off'
  private detail: string | null = null
  private toolList: McpToolInfo[] = []
  private stderr: string[] = []
  private partialLine = ''
  private restarts = 0
  private attempt = 0
  private client: Client | null = null
  /** The client still connecting: closed with the team too, so no half-started server stays. */
  private pending: Client | null = null
  private connectedAt = 0
  private connecting: Promise<void> | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private closed = false

  constructor(
    readonly server: ConfiguredServer,
    private readonly options: {
      readonly workspace: string
      readonly policy: ConnectionPolicy
      readonly onChange: () => void
    },
  ) {
    if (server.launch === null) {
      this.status = 'invalid'
      this.detail = server.problem
    }
  }

  get name(): string {
    return this.server.name
  }

  get tools(): readonly McpToolInfo[] {
    return this.status === 'running' ? this.toolList : []
  }

  get isStarting(): boolean {
    return this.status === 'starting'
  }

  /** Starts it (once); a server already running or restarting is left as it is. */
  start(): void {
    if (this.closed || this.server.launch === null || this.status !== 'off') return
    this.connect()
  }

  /** Resolves when the first connection attempt under way has finished, either way. */
  async whenStarted(): Promise<void> {
    await this.connecting
  }

  /** Secrets the server was given, to be cut out of anything it says. */
  get secrets(): readonly string[] {
    return this.server.secrets
  }

  async call(tool: string, input: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.client
    if (this.status !== 'running' || client === null)
      throw new Error(
        `the MCP server "${this.name}" is ${this.status}${this.detail ? `: ${this.detail}` : ''}`,
      )
    try {
      const result = await client.callTool(
        { name: tool, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { signal, timeout: this.options.policy.callTimeoutMs },
      )
      return result as CallToolResult
    } catch (error) {
      // An HTTP server that went away is noticed only by a failed request: connect again.
      if (!(error instanceof McpError) && !signal.aborted && this.server.transport === 'http')
        this.lost(client, 'it stopped answering')
      throw new Error(
        redact(error instanceof Error ? error.message : String(error), this.server.secrets),
        {
          cause: error,
        },
      )
    }
  }

  view(): McpServerView {
    return {
      name: this.name,
      source: this.server.source,
      transport: this.server.transport,
      target: this.server.target,
      status: this.status,
      detail: this.detail,
      tools: this.tools.map((tool) => tool.name),
      stderrTail: [...this.stderr],
      restarts: this.restarts,
    }
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    const clients = [this.client, this.pending]
    this.client = null
    this.pending = null
    if (this.server.launch !== null) this.setStatus('off', null)
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)))
  }

  private connect(): void {
    const launch = this.server.launch
    if (launch === null) return
    this.setStatus(this.restarts === 0 ? 'starting' : 'restarting', this.detail)
    this.connecting = this.open(launch).finally(() => {
      this.connecting = null
    })
  }

  private async open(launch: ServerLaunch): Promise<void> {
    const client = new Client(
      { name: 'agent-teams', version: '1' },
      {
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error || !tools || this.client !== client) return
              this.toolList = tools
              this.options.onChange()
            },
          },
        },
      },
    )
    const transport = this.transport(launch)
    this.pending = client
    try {
      await client.connect(transport, { timeout: this.options.policy.connectTimeoutMs })
      const tools = await listAllTools(client, this.options.policy.connectTimeoutMs)
      if (this.closed) {
        await client.close().catch(() => undefined)
        return
      }
      this.client = client
      this.toolList = tools
      this.connectedAt = Date.now()
      client.onclose = () => this.lost(client, 'it stopped')
      this.setStatus('running', null)
    } catch (error) {
      await client.close().catch(() => undefined)
      if (!this.closed) this.retry(describeFailure(error, this.server.secrets))
    } finally {
      if (this.pending === client) this.pending = null
    }
  }

  private transport(launch: ServerLaunch): Transport {
    if (launch.type === 'http')
      return new StreamableHTTPClientTransport(new URL(launch.url), {
        requestInit: { headers: { ...launch.headers } },
      })
    const transport = new StdioClientTransport({
      command: launch.command,
      args: [...launch.args],
      // Merged over the SDK's safe defaults (PATH, HOME, USER, …): never the app's API key.
      env: { ...launch.env },
      cwd: this.options.workspace,
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => this.noteStderr(chunk.toString('utf8')))
    return transport
  }

  private lost(client: Client, why: string): void {
    if (this.closed || this.client !== client) return
    this.client = null
    // A server that ran for a while and then stopped starts its back-off afresh.
    if (Date.now() - this.connectedAt >= this.options.policy.stableAfterMs) this.attempt = 0
    this.retry(why)
  }

  private retry(why: string): void {
    const delays = this.options.policy.restartDelaysMs
    const delay = delays[this.attempt]
    const last = this.stderr.at(-1)
    const reason = `${why}${last ? ` (stderr: ${last})` : ''}`
    if (delay === undefined) {
      this.setStatus(
        'failed',
        `${reason}; gave up after ${this.attempt + 1} attempt${this.attempt === 0 ? '' : 's'}. Fix it, then open the team again.`,
      )
      return
    }
    this.attempt++
    this.restarts++
    this.setStatus('restarting', `${reason}; restarting in ${Math.round(delay / 100) / 10} s`)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (!this.closed) this.connect()
    }, delay)
  }

  private setStatus(status: McpStatus, detail: string | null): void {
    this.status = status
    this.detail = detail
    this.options.onChange()
  }

  private noteStderr(text: string): void {
    const lines = (this.partialLine + text).split(/\r?\n/)
    this.partialLine = (lines.pop() ?? '').slice(0, STDERR_LINE_CHARS)
    const complete = lines.filter((line) => line.trim() !== '')
    if (complete.length === 0) return
    this.stderr = [
      ...this.stderr,
      ...complete.map((line) => redact(line.slice(0, STDERR_LINE_CHARS), this.server.secrets)),
    ].slice(-STDERR_LINES)
    this.options.onChange()
  }
}

async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = []
  let cursor: string | undefined
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout })
    tools.push(...result.tools)
    cursor = result.nextCursor
    if (!cursor) break
  }
  return tools
}

/** A server's own words may echo its secrets (a bad token in an error): they are cut out. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('***')
  return result
}

function describeFailure(error: unknown, secrets: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return 'its command was not found'
  if (/Connection closed/i.test(message)) return 'it exited before it answered'
  return redact(`it could not start: ${message}`, secrets).slice(0, 500)
}
