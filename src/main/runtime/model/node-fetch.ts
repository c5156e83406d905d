/**
 * A `fetch` for the SDK on node:http / node:https with keep-alive sockets. The platform's fetch
 * (undici) cost about 1.2 ms of CPU more than node:http for each model call here, which is
 * more than the rest of the runtime spends on a turn (bench/runtime.bench.ts).
 *
 * It does what the SDK asks of a fetch: the response body streams as it arrives (the SSE of a
 * turn), an abort (the agent's stop, the SDK's timeout) ends the request or the body with an
 * `AbortError`, and a failed connection rejects with a `TypeError` whose cause is the socket's
 * error, which the SDK turns into its APIConnectionError. Bodies other than the SDK's JSON (a
 * stream, a form) and `Request` objects are handed to the platform's fetch.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** Statuses whose response may not carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

export interface NodeFetchOptions {
  /** The platform's fetch, for what this one does not carry (default: the global fetch). */
  readonly fallback?: Fetch
  /** Certificate authorities to trust for https instead of Node's (a private endpoint). */
  readonly ca?: string | Buffer
}

/** A fetch with its own keep-alive agents; `close()` ends their sockets. */
export function createNodeFetch(options: NodeFetchOptions = {}): Fetch & { close(): void } {
  const fallback = options.fallback ?? ((input, init) => fetch(input, init))
  const agents = {
    'http:': new HttpAgent({ keepAlive: true }),
    'https:': new HttpsAgent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) }),
  }
  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = requestBody(init.body)
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null
    if (url === null || body === undefined || !(url.protocol in agents))
      return fallback(input, init)
    return send(url, init, body, agents[url.protocol as keyof typeof agents])
  }
  return Object.assign(nodeFetch, {
    close: () => {
      agents['http:'].destroy()
      agents['https:'].destroy()
    },
  })
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

function send(
  url: URL,
  init: RequestInit,
  body: string | Uint8Array | null,
  agent: HttpAgent,
): Promise<Response> {
  const signal = init.signal ?? null
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const headers = outgoingHeaders(init.headers)
    if (body !== null && !hasHeader(headers, 'content-length'))
      headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: init.method ?? 'GET',
      headers,
      agent,
    })
    let settled = false
    let response: IncomingMessage | null = null
    const onAbort = (): void => {
      const error = abortError(signal)
      // Before the headers the promise rejects; after, the body's reader gets the error.
      request.destroy(error)
      response?.destroy(error)
      if (!settled) {
        settled = true
        reject(error)
      }
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const forget = (): void => signal?.removeEventListener('abort', onAbort)
    request.on('error', (error) => {
      forget()
      if (settled) return
      settled = true
      reject(new TypeError('fetch failed', { cause: error }))
    })
    request.once('response', (incoming) => {
      response = incoming
      incoming.once('close', forget)
      settled = true
      resolve(toResponse(incoming))
    })
    request.end(body ?? undefined)
  })
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

function toResponse(incoming: IncomingMessage): Response {
  const status = incoming.statusCode ?? 200
  const headers = new Headers()
  const raw = incoming.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2)
    headers.append(raw[index] as string, raw[index + 1] as string)
  if (NULL_BODY_STATUSES.has(status)) incoming.resume()
  return new Response(NULL_BODY_STATUSES.has(status) ? null : bodyStream(incoming), {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  })
}

/** The response body as a web stream, chunk by chunk as the socket delivers it. */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        // Back-pressure: stop reading the socket until the reader asks for more.
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause()
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
      incoming.resume()
    },
    cancel() {
      done = true
      incoming.destroy()
    },
  })
}

function streamError(cause: Error): TypeError {
  return new TypeError('terminated', { cause })
}

function abortError(signal: AbortSignal | null): Error {
  const reason: unknown = signal?.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  return new DOMException('This operation was aborted', 'AbortError')
}
