import { randomBytes, timingSafeEqual } from 'node:crypto'
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { ModelEndpoint } from '../../model/client'
import type { Usage } from '../../../shared/transcript'
import { addUsage, NO_USAGE } from '../../../shared/usage'
import { apiUsage, isRecord, tokenCount } from './reported'

/**
 * The team's key never enters a Claude Code process. Claude Code calls the model itself, so
 * it is given this relay on 127.0.0.1 as its endpoint and a token of its own as its key; the
 * relay, in the app, checks the token and forwards the request to the team's endpoint with the
 * real key. A token lives only while its activation runs. The sandbox lets the process reach
 * the relay's port and nothing else of the endpoint's.
 *
 * It also meters: the tokens every answer reports (a stream's `message_start` and
 * `message_delta`, or a message's `usage`), per token and model, so that what a session spent is
 * known even when it never sends its result (a stop, a crash, a process that ended itself).
 *
 * No library does this (a reverse proxy that swaps one header and streams both ways); it is the
 * few lines below, on Node's own http.
 */
export class KeyRelay {
  private server: Server | null = null
  private starting: Promise<string> | null = null
  private readonly tokens = new Map<string, string>()
  /** Tokens reported through each live token, per model. */
  private readonly metered = new Map<string, Map<string, Usage>>()

  constructor(private readonly endpoint: () => ModelEndpoint) {}

  /** The relay's address (`http://127.0.0.1:<port>`), started on first use. */
  url(): Promise<string> {
    this.starting ??= new Promise<string>((resolve, reject) => {
      const server = createServer((request, response) => {
        const token = presentedToken(request)
        const known = token !== null && this.isLive(token)
        if (!known || !request.url?.startsWith('/v1/')) {
          response.writeHead(401, { 'content-type': 'application/json' })
          response.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'authentication_error', message: 'unknown relay token' },
            }),
          )
          request.resume()
          return
        }
        this.forward(request, response, token)
      })
      // Nothing of the relay keeps the app's process alive (a CLI run ends when its team does).
      server.on('connection', (socket) => socket.unref())
      server.keepAliveTimeout = 1000
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        server.unref()
        this.server = server
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      })
    })
    return this.starting
  }

  /** A token for one activation of `agent`, valid until `revoke`. */
  issue(agent: string): string {
    const token = `relay-${randomBytes(24).toString('hex')}`
    this.tokens.set(token, agent)
    this.metered.set(token, new Map())
    return token
  }

  /** What the answers to `token`'s requests reported, per model, so far. */
  usage(token: string): ReadonlyMap<string, Usage> {
    return this.metered.get(token) ?? new Map()
  }

  revoke(token: string): void {
    this.tokens.delete(token)
    this.metered.delete(token)
  }

  async close(): Promise<void> {
    const server = this.server
    this.server = null
    this.starting = null
    this.tokens.clear()
    if (server === null) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private count(token: string, model: string, usage: Usage): void {
    const byModel = this.metered.get(token)
    if (byModel === undefined) return
    byModel.set(model, addUsage(byModel.get(model) ?? NO_USAGE, usage))
  }

  private isLive(token: string): boolean {
    for (const live of this.tokens.keys()) {
      const a = Buffer.from(live)
      const b = Buffer.from(token)
      if (a.length === b.length && timingSafeEqual(a, b)) return true
    }
    return false
  }

  private forward(request: IncomingMessage, response: ServerResponse, token: string): void {
    const endpoint = this.endpoint()
    const base = new URL(endpoint.baseURL ?? 'https://api.anthropic.com')
    const target = new URL(
      `${base.pathname.replace(/\/$/, '')}${request.url ?? '/'}`,
      `${base.protocol}//${base.host}`,
    )
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue
      if (
        ['host', 'authorization', 'x-api-key', 'connection', 'proxy-authorization'].includes(name)
      )
        continue
      headers[name] = value
    }
    headers['x-api-key'] = endpoint.apiKey
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const upstream = send(target, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      const meter = new UsageTap((model, usage) => this.count(token, model, usage))
      answer.on('data', (chunk: Buffer) => meter.take(chunk))
      answer.on('end', () => meter.end())
      answer.pipe(response)
    })
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({ type: 'error', error: { type: 'api_error', message: error.message } }),
      )
    })
    response.on('close', () => upstream.destroy())
    request.pipe(upstream)
  }
}

/**
 * Reads the tokens an answer reports as it passes: server-sent events line by line, or a JSON
 * message whole (bounded). What does not parse is passed on and not counted.
 */
class UsageTap {
  private buffer = ''
  private whole = ''
  private model = 'unknown'
  private sse = false

  constructor(private readonly report: (model: string, usage: Usage) => void) {}

  take(chunk: Buffer): void {
    const text = chunk.toString('utf8')
    if (!this.sse && this.whole.length < 1_000_000) this.whole += text
    this.buffer += text
    let newline = this.buffer.indexOf('\n')
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).trim()
      this.buffer = this.buffer.slice(newline + 1)
      if (line.startsWith('data:')) {
        this.sse = true
        this.event(line.slice(5))
      }
      newline = this.buffer.indexOf('\n')
    }
    if (this.buffer.length > 1_000_000) this.buffer = ''
  }

  end(): void {
    if (this.sse) return
    const message = parse(this.whole)
    if (message === null || message['type'] !== 'message') return
    this.report(
      typeof message['model'] === 'string' ? message['model'] : this.model,
      apiUsage(message['usage']),
    )
  }

  private event(json: string): void {
    const event = parse(json)
    if (event === null) return
    if (event['type'] === 'message_start') {
      const message = event['message'] as Record<string, unknown> | undefined
      if (typeof message?.['model'] === 'string') this.model = message['model']
      this.report(this.model, { ...apiUsage(message?.['usage']), output_tokens: 0 })
    } else if (event['type'] === 'message_delta') {
      const usage = event['usage'] as Record<string, unknown> | undefined
      this.report(this.model, { ...NO_USAGE, output_tokens: tokenCount(usage?.['output_tokens']) })
    }
  }
}

function parse(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

/** The token a request presents, as the Messages API takes a key (either header). */
function presentedToken(request: IncomingMessage): string | null {
  const key = request.headers['x-api-key']
  if (typeof key === 'string') return key
  const auth = request.headers['authorization']
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : null
}
