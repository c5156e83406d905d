import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  McpError,
  type CallToolResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerView, McpStatus } from '../../shared/mcp'
import type { BlockedAction } from '../../shared/sandbox'
import type { ConfiguredServer, ServerLaunch } from './config'
import {
  startStdioServer,
  type McpSandboxContext,
  type StdioServerProcess,
} from './sandboxed-launch'

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
/** What a call's stderr is kept of, to find the writes the sandbox refused during it. */
const CALL_STDERR_CHARS = 64 * 1024

/** How a connection starts its server, and whom it tells what the sandbox blocked. */
export interface ConnectionOptions {
  readonly workspace: string
  readonly policy: ConnectionPolicy
  readonly onChange: () => void
  /** Why the server may not start now (the workspace is not trusted), or null; asked each time. */
  readonly mayStart: () => string | null
  /** Where stdio servers run: the OS sandbox's rules for them. */
  readonly stdio: McpSandboxContext
  /** The sandbox stopped the server from writing or connecting during `agent`'s call. */
  readonly onBlocked?: (agent: string, actions: readonly BlockedAction[]) => void
}

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
  /** The running stdio server's process and sandbox, released when it has gone. */
  private process: StdioServerProcess | null = null
  /** Its stderr since the last call began: where refused writes are named. */
  private callStderr = ''
  /** The client still connecting: closed with the team too, so no half-started server stays. */
  private pending: Client | null = null
  private connectedAt = 0
  private connecting: Promise<void> | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private closed = false

  constructor(
    readonly server: ConfiguredServer,
    private readonly options: ConnectionOptions,
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

  /** Not started, and why (the workspace is not trusted): what its view shows. */
  hold(reason: string): void {
    if (this.closed || this.server.launch === null || this.status !== 'off') return
    this.setStatus('off', reason)
  }

  /** Resolves when the first connection attempt under way has finished, either way. */
  async whenStarted(): Promise<void> {
    await this.connecting
  }

  /** Secrets the server was given, to be cut out of anything it says. */
  get secrets(): readonly string[] {
    return this.server.secrets
  }

  /** Calls a tool for `agent`; what the sandbox blocked meanwhile is told on its behalf. */
  async call(
    tool: string,
    input: unknown,
    signal: AbortSignal,
    agent: string,
  ): Promise<CallToolResult> {
    const client = this.client
    if (this.status !== 'running' || client === null)
      throw new Error(
        `the MCP server "${this.name}" is ${this.status}${this.detail ? `: ${this.detail}` : ''}`,
      )
    this.callStderr = ''
    // The team's list as it is now: a host the person allowed since the start applies.
    this.process?.followHosts()
    let said = ''
    try {
      const result = (await client.callTool(
        { name: tool, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { signal, timeout: this.options.policy.callTimeoutMs },
      )) as CallToolResult
      said = textOf(result)
      return result
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
    } finally {
      // A refused write shows in what the server said, on stderr or in its answer, as bash's
      // does in its output; a refused connection is in the proxy's own record.
      const blocked = this.process?.newlyBlocked(`${this.callStderr}\n${said}`) ?? []
      if (blocked.length > 0) this.options.onBlocked?.(agent, blocked)
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
    const process = this.process
    this.client = null
    this.pending = null
    this.process = null
    if (this.server.launch !== null) this.setStatus('off', null)
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)))
    process?.release()
  }

  private connect(): void {
    const launch = this.server.launch
    if (launch === null) return
    // Asked at every start and restart: a script changed since the person agreed waits.
    const refusal = this.options.mayStart()
    if (refusal !== null) {
      this.setStatus('off', refusal)
      return
    }
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
    this.pending = client
    let process: StdioServerProcess | null = null
    try {
      let transport: Transport
      if (launch.type === 'http') transport = httpTransport(launch)
      else {
        process = await startStdioServer(launch, this.options.stdio)
        process.transport.stderr?.on('data', (chunk: Buffer) =>
          this.noteStderr(chunk.toString('utf8')),
        )
        transport = process.transport
      }
      await client.connect(transport, { timeout: this.options.policy.connectTimeoutMs })
      const tools = await listAllTools(client, this.options.policy.connectTimeoutMs)
      if (this.closed) {
        await client.close().catch(() => undefined)
        process?.release()
        return
      }
      this.client = client
      this.process = process
      this.toolList = tools
      this.connectedAt = Date.now()
      client.onclose = () => {
        // Gone: its sandbox and temporary folder go with it.
        process?.release()
        this.lost(client, 'it stopped')
      }
      this.setStatus('running', null)
    } catch (error) {
      await client.close().catch(() => undefined)
      process?.release()
      if (!this.closed) this.retry(describeFailure(error, this.server.secrets, this.stderr.at(-1)))
    } finally {
      if (this.pending === client) this.pending = null
    }
  }

  private lost(client: Client, why: string): void {
    if (this.closed || this.client !== client) return
    this.client = null
    this.process = null
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
    this.callStderr = (this.callStderr + text).slice(-CALL_STDERR_CHARS)
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

function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n')
    .slice(0, CALL_STDERR_CHARS)
}

function httpTransport(launch: Extract<ServerLaunch, { type: 'http' }>): Transport {
  return new StreamableHTTPClientTransport(new URL(launch.url), {
    requestInit: { headers: { ...launch.headers } },
  })
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

/** Inside the sandbox the command is bash's to find: its words when it could not. */
const NOT_FOUND = /^\/bin\/bash: line \d+: .*: (No such file or directory|command not found)$/

function describeFailure(
  error: unknown,
  secrets: readonly string[],
  lastStderr: string | undefined,
): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT' || NOT_FOUND.test(lastStderr ?? '')) return 'its command was not found'
  if (/Connection closed/i.test(message)) return 'it exited before it answered'
  return redact(`it could not start: ${message}`, secrets).slice(0, 500)
}
