/**
 * A `fetch` for the SDK on node:http / node:https with keep-alive sockets. The platform's fetch
 * (undici) cost about 1.2 ms of CPU more than node:http for each model call here, which is
 * more than the rest of the runtime spends on a turn (bench/runtime.bench.ts).
 *
 * It does what the SDK asks of a fetch: the response body streams as it arrives (the SSE of a
 * turn), an abort (the agent's stop, the SDK's timeout) ends the request or the body with an
 * `AbortError`, and a failed connection rejects with a `TypeError` whose cause is the socket's
 * error, which the SDK turns into its APIConnectionError. As the platform's fetch, it gives up on
 * a server silent for 300 s (before the headers as a failed connection, after as a failed body)
 * and follows redirects, without the API key to another origin. Bodies other than the SDK's
 * JSON (a stream, a form) and `Request` objects are handed to the platform's fetch.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** Statuses whose response may not carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/** As the platform's fetch: undici's headers and body timeouts are 300 s each. */
const DEFAULT_IDLE_TIMEOUT_MS = 300_000

/** The redirects fetch follows, and how many in a row (the fetch standard's limit). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 20

/** Credentials that must not follow a redirect to another origin (the API key among them). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'x-api-key', 'cookie']

/** What describes a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-length',
  'content-type',
  'content-encoding',
  'content-language',
  'content-location',
]

export interface NodeFetchOptions {
  /** The platform's fetch, for what this one does not carry (default: the global fetch). */
  readonly fallback?: Fetch
  /** Certificate authorities to trust for https instead of Node's (a private endpoint). */
  readonly ca?: string | Buffer
  /**
   * How long the server may send nothing, waiting for the headers or between pieces of the
   * body, before the request fails (default 300 s). Once the headers are in, the SDK's own
   * timeout no longer runs: without this a server gone silent mid-stream hangs the turn.
   */
  readonly idleTimeoutMs?: number
}

/** The server sent nothing for the idle timeout: the cause of the fetch's or the body's error. */
export class IdleTimeoutError extends Error {
  override readonly name = 'IdleTimeoutError'
  readonly code = 'ERR_IDLE_TIMEOUT'

  constructor(readonly milliseconds: number) {
    super(`the model endpoint sent nothing for ${milliseconds} ms (idle timeout)`)
  }
}

type Agents = Readonly<Record<'http:' | 'https:', HttpAgent>>

interface Transport {
  readonly agents: Agents
  readonly idleTimeoutMs: number
}

/** One request on the wire: the first, or one a redirect asked for. */
interface Hop {
  readonly url: URL
  readonly method: string
  readonly headers: OutgoingHttpHeaders
  readonly body: string | Uint8Array | null
}

/** A fetch with its own keep-alive agents; `close()` ends their sockets. */
export function createNodeFetch(options: NodeFetchOptions = {}): Fetch & { close(): void } {
  const fallback = options.fallback ?? ((input, init) => fetch(input, init))
  const agents: Agents = {
    'http:': new HttpAgent({ keepAlive: true }),
    'https:': new HttpsAgent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) }),
  }
  const transport: Transport = {
    agents,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  }
  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = requestBody(init.body)
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null
    if (url === null || body === undefined || !isCarried(url)) return fallback(input, init)
    const method = init.method ?? 'GET'
    const hop: Hop = { url, method, headers: outgoingHeaders(init.headers), body }
    return fetchFollowing(hop, init, transport)
  }
  return Object.assign(nodeFetch, {
    close: () => {
      agents['http:'].destroy()
      agents['https:'].destroy()
    },
  })
}

function isCarried(url: URL): url is URL & { protocol: keyof Agents } {
  return url.protocol === 'http:' || url.protocol === 'https:'
}

/** The body as bytes or text, null for none, undefined for a kind left to the fallback. */
function requestBody(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === null || body === undefined) return null
  if (typeof body === 'string') return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  if (body instanceof URLSearchParams) return body.toString()
  return undefined
}

/**
 * Sends the request and the ones its redirects ask for, as fetch's `redirect: 'follow'` does
 * ('manual' hands back the redirect, 'error' fails on it).
 */
async function fetchFollowing(
  first: Hop,
  init: RequestInit,
  transport: Transport,
): Promise<Response> {
  const signal = init.signal ?? null
  let hop = first
  for (let redirects = 0; ; redirects++) {
    const { incoming, idle } = await exchange(hop, signal, transport)
    const location = incoming.headers.location
    const status = incoming.statusCode ?? 200
    if (!REDIRECT_STATUSES.has(status) || location === undefined || init.redirect === 'manual')
      return response(incoming, idle)
    // Read to its end first, so that the next request can have its socket from the pool.
    await drain(incoming)
    if (init.redirect === 'error')
      throw fetchFailed(new Error(`the server redirected (${status}) to ${location}`))
    if (redirects === MAX_REDIRECTS)
      throw fetchFailed(new Error(`more than ${MAX_REDIRECTS} redirects`))
    hop = redirected(hop, status, location)
  }
}

/** The request a redirect asks for, or a failed fetch for a location that cannot be followed. */
function redirected(hop: Hop, status: number, location: string): Hop {
  let url: URL
  try {
    url = new URL(location, hop.url)
  } catch (cause) {
    throw fetchFailed(cause)
  }
  if (!isCarried(url)) throw fetchFailed(new Error(`a redirect to ${url.protocol} is not followed`))
  let { method, headers, body } = hop
  // 307 and 308 resend the request as it was; 303, and 301/302 after a POST, turn it into a GET.
  const toGet =
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST')
  if (toGet) {
    method = 'GET'
    body = null
    headers = withoutHeaders(headers, BODY_HEADERS)
  }
  // The API key is for the endpoint's own host, never for another one.
  if (url.origin !== hop.url.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS)
  return { url, method, headers, body }
}

/**
 * One request: resolves with the response once its headers are in, rejects with an
 * `AbortError` when aborted before, else with a `TypeError` (a failed connection, a server
 * silent for the idle timeout). After the headers, an abort or the idle timeout destroys the
 * response with that error, which its body's reader gets.
 */
function exchange(
  hop: Hop,
  signal: AbortSignal | null,
  transport: Transport,
): Promise<{ incoming: IncomingMessage; idle: IdleTimer }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const headers = { ...hop.headers }
    const body = hop.body
    if (body !== null && !hasHeader(headers, 'content-length'))
      headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
    const request = (hop.url.protocol === 'https:' ? httpsRequest : httpRequest)(hop.url, {
      method: hop.method,
      headers,
      agent: transport.agents[hop.url.protocol as keyof Agents],
    })
    let settled = false
    let response: IncomingMessage | null = null
    const end = (error: Error, rejection: Error): void => {
      // Before the headers the promise rejects; after, the body's reader gets the error.
      response?.destroy(error)
      request.destroy(error)
      if (!settled) {
        settled = true
        reject(rejection)
      }
    }
    const onAbort = (): void => {
      const error = abortError(signal)
      end(error, error)
    }
    const idle = new IdleTimer(transport.idleTimeoutMs, () => {
      const error = new IdleTimeoutError(transport.idleTimeoutMs)
      end(error, fetchFailed(error))
    })
    const finish = (): void => {
      idle.dispose()
      signal?.removeEventListener('abort', onAbort)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    idle.start()
    request.on('error', (error) => {
      finish()
      if (settled) return
      settled = true
      reject(fetchFailed(error))
    })
    request.once('response', (incoming) => {
      response = incoming
      incoming.once('close', finish)
      settled = true
      resolve({ incoming, idle })
    })
    request.end(body ?? undefined)
  })
}

/**
 * The idle timeout of one request: runs while the server owes data (the headers, the body
 * while it is read), restarts with each piece, and stops while the reader is what holds it up.
 */
class IdleTimer {
  private timer: NodeJS.Timeout | null = null
  private disposed = false

  constructor(
    private readonly milliseconds: number,
    private readonly onIdle: () => void,
  ) {}

  start(): void {
    if (this.disposed || this.timer !== null) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.onIdle()
    }, this.milliseconds)
  }

  /** Data came: the silence starts again. */
  touch(): void {
    this.timer?.refresh()
  }

  /** The reader has not asked for more: its slowness is not the server's silence. */
  pause(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  dispose(): void {
    this.pause()
    this.disposed = true
  }
}

function outgoingHeaders(headers: RequestInit['headers']): OutgoingHttpHeaders {
  const result: OutgoingHttpHeaders = {}
  if (headers === undefined) return result
  const entries =
    headers instanceof Headers
      ? headers.entries()
      : Array.isArray(headers)
        ? headers
        : Object.entries(headers)
  for (const [name, value] of entries as Iterable<[string, string]>) result[name] = value
  return result
}

function hasHeader(headers: OutgoingHttpHeaders, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name)
}

function withoutHeaders(
  headers: OutgoingHttpHeaders,
  names: readonly string[],
): OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())),
  )
}

/**
 * The Response for the SDK, or a failed fetch for what a Response cannot be (a status outside
 * 200–599): the constructor's RangeError thrown from the socket's event would crash the process.
 */
function response(incoming: IncomingMessage, idle: IdleTimer): Response {
  try {
    return toResponse(incoming, idle)
  } catch (cause) {
    incoming.destroy()
    throw fetchFailed(cause)
  }
}

function toResponse(incoming: IncomingMessage, idle: IdleTimer): Response {
  const status = incoming.statusCode ?? 200
  const headers = new Headers()
  const raw = incoming.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2)
    headers.append(raw[index] as string, raw[index + 1] as string)
  const nullBody = NULL_BODY_STATUSES.has(status)
  const result = new Response(nullBody ? null : bodyStream(incoming, idle), {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  })
  if (nullBody) void drain(incoming)
  return result
}

/**
 * Reads a response nobody will to its end (or its failure: an abort, the idle timeout, which
 * is then no one's error), resolving once it is closed.
 */
function drain(incoming: IncomingMessage): Promise<void> {
  const closed = new Promise<void>((resolve) => incoming.once('close', () => resolve()))
  incoming.on('error', () => undefined)
  incoming.resume()
  return closed
}

/** The response body as a web stream, chunk by chunk as the socket delivers it. */
function bodyStream(incoming: IncomingMessage, idle: IdleTimer): ReadableStream<Uint8Array> {
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on('data', (chunk: Buffer) => {
        idle.touch()
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        // Back-pressure: stop reading the socket until the reader asks for more.
        if ((controller.desiredSize ?? 1) <= 0) {
          incoming.pause()
          idle.pause()
        }
      })
      incoming.once('end', () => {
        if (done) return
        done = true
        controller.close()
      })
      incoming.on('error', (error) => {
        if (done) return
        done = true
        controller.error(error.name === 'AbortError' ? error : streamError(error))
      })
      // A socket closed before the end (the server went away mid-stream) is an error too.
      incoming.once('close', () => {
        if (done || incoming.complete) return
        done = true
        controller.error(streamError(new Error('the connection closed before the body ended')))
      })
    },
    pull() {
      idle.start()
      incoming.resume()
    },
    cancel() {
      done = true
      incoming.destroy()
    },
  })
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause })
}

function streamError(cause: Error): TypeError {
  return new TypeError('terminated', { cause })
}

function abortError(signal: AbortSignal | null): Error {
  const reason: unknown = signal?.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  return new DOMException('This operation was aborted', 'AbortError')
}
