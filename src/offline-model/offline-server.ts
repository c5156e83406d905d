/**
 * The offline model server: a scripted HTTP server on 127.0.0.1 that speaks the Anthropic
 * Messages API (JSON and SSE), so the real SDK runs in every test and in the offline demo.
 *
 * It checks conversations the way the real API does where it matters to the runtime (roles
 * alternate, every tool_use answered in the next message, thinking blocks sent back unchanged),
 * so an invalid transcript fails a test here instead of in production; and it bills the prompt
 * as the API does (cache reads and writes, a context window, count_tokens), so the runtime's
 * caching and compaction can be tested without a real endpoint.
 */
import { createServer } from 'node:http'
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { RequestRefusal, agentName, looseBody, parseModelRequest, readBody } from './requests'
import type { ModelRequest, Reply, RequestContext, Script, StreamFault, Turn } from './script'
import { assertTurn, interruptedTurn, isFault } from './script'
import { promptParts, promptTokens, type PromptPart } from './prompt'
import { PromptCache, checkMarkCount } from './prompt-cache'
import { ThinkingSigner } from './thinking'
import {
  defaultErrorType,
  errorBody,
  resolveTurn,
  turnEvents,
  turnMessage,
  writeEventStream,
} from './sse'

export interface OfflineServerOptions {
  script: Script
  /** Default 0 (ephemeral); the host is always 127.0.0.1. */
  port?: number
  /** If set, requests need `authorization: Bearer <key>` or `x-api-key: <key>`, else 401. */
  apiKey?: string
  /** Text and tool JSON are split into deltas of this many characters (default 12). */
  chunkCharacters?: number
  /** Delay between SSE events (default 0). */
  eventDelayMs?: number
  /** The model name echoed when a request names none. */
  model?: string
  /**
   * The context window in tokens (default 200,000, the API's): a longer prompt is refused with
   * the API's 400 "prompt is too long". Token counts are the server's estimate (`prompt.ts`).
   */
  contextWindow?: number
  /** Whether `/v1/messages/count_tokens` is answered (default true; false answers 404). */
  countTokens?: boolean
  /**
   * Where the message and tool-use ids count from (default 0: `msg_offline_1`,
   * `toolu_offline_1`…). A server answering conversations an earlier one began (the demo run
   * again in the same folder) starts past its ids: like the API's, they must not repeat, and a
   * resumed Claude Code session drops a tool call whose id it holds already.
   */
  firstId?: number
}

export interface RecordedRequest {
  agent: string | null
  /** The request body as sent (a refused body is recorded as far as it parsed). */
  body: ModelRequest
  headers: Record<string, string | string[] | undefined>
  /** The script's reply, or why the server answered without asking the script. */
  reply: Reply | { error: string }
}

/** A request past every check the API makes before it answers. */
interface Admitted {
  body: ModelRequest
  parts: PromptPart[]
  thinking: boolean
}

interface PendingWait {
  timer: NodeJS.Timeout
  resolve: () => void
}

const messagesPath = '/v1/messages'
const countTokensPath = '/v1/messages/count_tokens'
const defaultContextWindow = 200_000
const defaultModel = 'claude-offline'
const defaultChunkCharacters = 12

export class OfflineModelServer {
  readonly requests: RecordedRequest[] = []
  /** Requests to count_tokens, answered or not (they are not in `requests`). */
  countTokensCalls = 0
  readonly #options: OfflineServerOptions
  readonly #server = createServer()
  readonly #sockets = new Set<Socket>()
  readonly #waits = new Set<PendingWait>()
  readonly #agentCalls = new Map<string | null, number>()
  readonly #cache = new PromptCache()
  readonly #thinking = new ThinkingSigner()
  #script: Script
  #eventDelayMs: number
  #url = ''
  #calls = 0
  #messageCount = 0
  #toolCount = 0
  #closing: Promise<void> | null = null

  private constructor(options: OfflineServerOptions) {
    this.#options = options
    this.#script = options.script
    this.#eventDelayMs = options.eventDelayMs ?? 0
    this.#messageCount = options.firstId ?? 0
    this.#toolCount = options.firstId ?? 0
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket)
      socket.once('close', () => this.#sockets.delete(socket))
    })
    this.#server.on('request', (request, response) => void this.#handle(request, response))
  }

  static async start(options: OfflineServerOptions): Promise<OfflineModelServer> {
    const instance = new OfflineModelServer(options)
    await instance.#listen(options.port ?? 0)
    return instance
  }

  /** For example http://127.0.0.1:43123, usable as the SDK's `baseURL`. */
  get url(): string {
    return this.#url
  }

  /** The pause between streamed events from the next request on (the demo's speed setting). */
  setEventDelay(milliseconds: number): void {
    this.#eventDelayMs = Math.max(0, milliseconds)
  }

  setScript(script: Script): void {
    this.#script = script
  }

  /** Stops listening, ends every stall and delay, and destroys every open socket. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve())
      for (const wait of this.#waits) {
        clearTimeout(wait.timer)
        wait.resolve()
      }
      this.#waits.clear()
      for (const socket of this.#sockets) socket.destroy()
    })
    return this.#closing
  }

  #listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject)
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', reject)
        this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
        resolve()
      })
    })
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.#route(request, response)
    } catch (error) {
      if (response.headersSent) response.destroy()
      else
        sendError(response, 500, 'api_error', `offline server: ${describe(error)}`, {
          shouldRetry: false,
        })
    }
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', this.#url).pathname
    const bodyText = await readBody(request)
    if (path === countTokensPath) this.countTokensCalls += 1
    if (path !== messagesPath && !(path === countTokensPath && this.#options.countTokens !== false))
      return sendError(
        response,
        404,
        'not_found_error',
        `offline server: no route for ${request.method} ${path}`,
      )
    if (request.method !== 'POST') {
      response.setHeader('allow', 'POST')
      return sendError(
        response,
        405,
        'invalid_request_error',
        `offline server: ${request.method} is not allowed on ${path}`,
      )
    }
    if (path === countTokensPath) return this.#countTokens(request.headers, bodyText, response)
    const agent = agentName(request.headers)
    const record = (body: ModelRequest, reply: RecordedRequest['reply']): void => {
      this.requests.push({ agent, body, headers: { ...request.headers }, reply })
    }
    let admitted: Admitted
    try {
      admitted = this.#admit(request.headers, bodyText)
    } catch (error) {
      if (!(error instanceof RequestRefusal)) throw error
      record(looseBody(bodyText), { error: error.message })
      return sendError(response, error.status, error.errorType, error.message)
    }
    const { body } = admitted
    let reply: Reply
    try {
      reply = await this.#script(body, this.#nextContext(agent))
    } catch (error) {
      const message = `offline script threw: ${describe(error)}`
      record(body, { error: message })
      return sendError(response, 500, 'api_error', message, { shouldRetry: false })
    }
    record(body, reply)
    await this.#answer(reply, admitted, response)
  }

  /** A request the API would take: authenticated, valid, within the window; else a refusal. */
  #admit(headers: IncomingHttpHeaders, bodyText: string): Admitted {
    this.#authenticate(headers)
    const body = parseModelRequest(bodyText)
    const thinking = this.#thinking.requested(body)
    this.#thinking.check(body, thinking)
    const parts = this.#withinWindow(body)
    checkMarkCount(parts)
    return { body, parts, thinking }
  }

  /** count_tokens: the prompt's size as the messages call would count it. */
  #countTokens(headers: IncomingHttpHeaders, bodyText: string, response: ServerResponse): void {
    try {
      this.#authenticate(headers)
      // The same checks as a call, but count_tokens has no max_tokens.
      const body = parseModelRequest(withMaxTokens(bodyText))
      sendJson(response, 200, { input_tokens: promptTokens(promptParts(body)) })
    } catch (error) {
      if (!(error instanceof RequestRefusal)) throw error
      sendError(response, error.status, error.errorType, error.message)
    }
  }

  /** The prompt's parts, or the API's 400 when they do not fit the context window. */
  #withinWindow(body: ModelRequest): PromptPart[] {
    const parts = promptParts(body)
    const tokens = promptTokens(parts)
    const window = this.#options.contextWindow ?? defaultContextWindow
    if (tokens > window)
      throw new RequestRefusal(
        400,
        'invalid_request_error',
        `prompt is too long: ${tokens} tokens > ${window} maximum`,
      )
    return parts
  }

  #authenticate(headers: IncomingHttpHeaders): void {
    const key = this.#options.apiKey
    if (key === undefined) return
    if (headers.authorization === `Bearer ${key}` || headers['x-api-key'] === key) return
    throw new RequestRefusal(401, 'authentication_error', 'offline server: invalid API key')
  }

  #nextContext(agent: string | null): RequestContext {
    this.#calls += 1
    const agentCall = (this.#agentCalls.get(agent) ?? 0) + 1
    this.#agentCalls.set(agent, agentCall)
    return { agent, call: this.#calls, agentCall }
  }

  async #answer(
    reply: Reply,
    { body, parts, thinking }: Admitted,
    response: ServerResponse,
  ): Promise<void> {
    if (isFault(reply) && reply.fault === 'http') {
      const errorType = reply.errorType ?? defaultErrorType(reply.status)
      const message = reply.message ?? `offline script: scripted HTTP ${reply.status}`
      return sendError(response, reply.status, errorType, message, reply)
    }
    const fault = isFault(reply) ? reply : null
    const turn = fault ? (fault.turn ?? interruptedTurn) : (reply as Turn)
    assertTurn(turn)
    const resolved = resolveTurn(
      turn,
      () => `toolu_offline_${++this.#toolCount}`,
      this.#cache.account(modelOf(body), parts),
      thinking ? this.#thinking.blocks(turn) : [],
    )
    this.#messageCount += 1
    const header = {
      id: `msg_offline_${this.#messageCount}`,
      model: modelOf(body) !== '' ? modelOf(body) : (this.#options.model ?? defaultModel),
    }
    if (body.stream === true) {
      const chunkCharacters = this.#options.chunkCharacters ?? defaultChunkCharacters
      const events = turnEvents(resolved, header, chunkCharacters)
      const pacing = {
        eventDelayMs: this.#eventDelayMs,
        wait: (milliseconds: number) => this.#wait(milliseconds),
        isClosing: () => this.#closing !== null,
      }
      return writeEventStream(response, events, fault, pacing)
    }
    return this.#respondOnce(response, turnMessage(resolved, header), fault)
  }

  async #respondOnce(
    response: ServerResponse,
    message: Record<string, unknown>,
    fault: StreamFault | null,
  ): Promise<void> {
    if (fault?.fault === 'drop') return void response.socket?.destroy()
    if (fault?.fault === 'stall') await this.#wait(fault.milliseconds)
    if (fault?.fault === 'stream-error') {
      // Without a stream there is no mid-stream error to send: answer with the HTTP error instead.
      const errorType = fault.errorType ?? 'overloaded_error'
      const status = errorType === 'overloaded_error' ? 529 : 500
      return sendError(
        response,
        status,
        errorType,
        fault.message ?? 'offline script: scripted error',
      )
    }
    if (this.#closing === null) sendJson(response, 200, message)
  }

  /** A delay that close() cuts short, so no timer outlives the server. */
  #wait(milliseconds: number): Promise<void> {
    if (milliseconds <= 0 || this.#closing !== null) return Promise.resolve()
    return new Promise((resolve) => {
      const wait: PendingWait = {
        timer: setTimeout(() => {
          this.#waits.delete(wait)
          resolve()
        }, milliseconds),
        resolve,
      }
      this.#waits.add(wait)
    })
  }
}

function modelOf(body: ModelRequest): string {
  return typeof body.model === 'string' ? body.model : ''
}

/** A count_tokens body made acceptable to the messages checks, which require max_tokens. */
function withMaxTokens(bodyText: string): string {
  try {
    const value: unknown = JSON.parse(bodyText)
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return JSON.stringify({ ...value, max_tokens: 1 })
  } catch {
    // Not JSON: the checks refuse it with the parser's message.
  }
  return bodyText
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  const payload = JSON.stringify(body)
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  })
  response.end(payload)
}

function sendError(
  response: ServerResponse,
  status: number,
  errorType: string,
  message: string,
  { shouldRetry, retryAfterSeconds }: { shouldRetry?: boolean; retryAfterSeconds?: number } = {},
): void {
  const headers: OutgoingHttpHeaders = {}
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds)
  if (shouldRetry !== undefined) headers['x-should-retry'] = String(shouldRetry)
  sendJson(response, status, errorBody(errorType, message), headers)
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
