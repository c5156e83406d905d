import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk'
import { describe, expect, it, onTestFinished } from 'vitest'
import { classify } from '../../../../src/main/runtime/agents/model-turn'
import { createNodeFetch, IdleTimeoutError } from '../../../../src/main/runtime/model/node-fetch'
import { text } from '../../../../src/main/runtime/model/script'
import { tempWorkspace } from '../../../helpers/workspace'
import { offlineServers, rejectionOf, request } from './offline-harness'

const startServer = offlineServers()

function nodeFetch(options: Parameters<typeof createNodeFetch>[0] = {}) {
  const fetcher = createNodeFetch(options)
  onTestFinished(() => fetcher.close())
  return fetcher
}

function sdkOver(server: { url: string }, options: ClientOptions = {}): Anthropic {
  return new Anthropic({
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 0,
    fetch: nodeFetch(),
    ...options,
  })
}

const streamBody = JSON.stringify({ ...request(), stream: true })

function post(init: RequestInit = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test-key' },
    body: streamBody,
    ...init,
  }
}

/** A script that never answers (until the server closes): the request waits for its headers. */
const never = (): Promise<never> => new Promise<never>(() => undefined)

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('the node:http fetch', () => {
  it('streams the body as it is written; an abort then ends it with an AbortError', async () => {
    // Three events, then a minute of silence: only a streamed body can be read before it ends.
    const server = await startServer({
      script: () => ({ fault: 'stall', afterEvents: 3, milliseconds: 60_000, turn: text('hi') }),
    })
    const controller = new AbortController()
    const response = await nodeFetch()(`${server.url}/v1/messages`, {
      ...post(),
      signal: controller.signal,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let received = ''
    while (!received.includes('content_block_start')) {
      const { value } = await reader.read()
      received += new TextDecoder().decode(value)
    }
    expect(received).toContain('event: message_start')
    controller.abort()
    const error = await rejectionOf(reader.read())
    expect(error.name).toBe('AbortError')
  })

  it('an abort before the response rejects with an AbortError; through the SDK, its abort error', async () => {
    const server = await startServer({ script: never, apiKey: 'test-key' })
    const controller = new AbortController()
    const pending = nodeFetch()(`${server.url}/v1/messages`, {
      ...post(),
      signal: controller.signal,
    })
    controller.abort()
    expect((await rejectionOf(pending)).name).toBe('AbortError')

    const sdkController = new AbortController()
    const call = sdkOver(server).messages.create(request(), { signal: sdkController.signal })
    setImmediate(() => sdkController.abort())
    expect(await rejectionOf(call)).toBeInstanceOf(Anthropic.APIUserAbortError)
  })

  it("ends a request at the SDK's timeout, as its timeout error", async () => {
    const server = await startServer({ script: never, apiKey: 'test-key' })
    const error = await rejectionOf(sdkOver(server, { timeout: 200 }).messages.create(request()))
    expect(error).toBeInstanceOf(Anthropic.APIConnectionTimeoutError)
  })

  it("a refused connection is a TypeError with the socket's error; through the SDK, its connection error", async () => {
    const server = await startServer({ script: () => text('hi') })
    const url = server.url
    await server.close()
    const error = await rejectionOf(nodeFetch()(`${url}/v1/messages`, post()))
    expect(error).toBeInstanceOf(TypeError)
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED')
    const viaSdk = await rejectionOf(sdkOver({ url }).messages.create(request()))
    expect(viaSdk).toBeInstanceOf(Anthropic.APIConnectionError)
    expect(viaSdk).not.toBeInstanceOf(Anthropic.APIConnectionTimeoutError)
  })

  it('an HTTP error keeps its status, headers and body for the SDK', async () => {
    const server = await startServer({
      script: () => ({ fault: 'http', status: 429, retryAfterSeconds: 7, message: 'slow down' }),
    })
    const error = await rejectionOf(sdkOver(server).messages.create(request()))
    expect(error).toBeInstanceOf(Anthropic.RateLimitError)
    const apiError = error as InstanceType<typeof Anthropic.APIError>
    expect(apiError.status).toBe(429)
    expect(apiError.headers?.get('retry-after')).toBe('7')
    expect(apiError.message).toContain('slow down')
  })

  it('a stream cut off mid-way fails the turn instead of ending it short', async () => {
    const server = await startServer({
      script: () => ({ fault: 'drop', afterEvents: 3, turn: text('a longer answer') }),
    })
    const stream = sdkOver(server).messages.stream(request())
    const error = await rejectionOf(stream.finalMessage())
    expect(error).not.toBeInstanceOf(Anthropic.APIUserAbortError)
  })

  it('sends the headers and body as given and streams a whole turn through the SDK', async () => {
    const server = await startServer({ script: () => text('hello there'), apiKey: 'test-key' })
    const stream = sdkOver(server).messages.stream(request(), {
      headers: { 'x-agent-name': 'alice' },
    })
    const deltas: string[] = []
    stream.on('text', (delta) => deltas.push(delta))
    const message = await stream.finalMessage()
    expect(message.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'hello there' }),
    ])
    expect(deltas.join('')).toBe('hello there')
    expect(server.requests.map((entry) => entry.agent)).toEqual(['alice'])
    expect(server.requests[0]?.body.messages).toEqual(request().messages)
  })

  it('keeps its connection alive between calls', async () => {
    let connections = 0
    const server = createServer((incoming, outgoing) => {
      incoming.resume()
      incoming.once('end', () => outgoing.end('ok'))
    })
    server.on('connection', () => connections++)
    const host = await listen(server)
    const fetcher = nodeFetch()
    for (let call = 0; call < 3; call++) {
      const response = await fetcher(`http://${host}/`, { method: 'POST', body: 'x' })
      expect(await response.text()).toBe('ok')
    }
    expect(connections).toBe(1)
  })

  it('speaks https, trusting only what it is told to', async () => {
    const { dir } = tempWorkspace()
    const key = join(dir, 'key.pem')
    const cert = join(dir, 'cert.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ].concat(['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert]),
      { stdio: 'ignore' },
    )
    const server = createHttpsServer(
      { key: readFileSync(key), cert: readFileSync(cert) },
      (incoming, outgoing) => {
        incoming.resume()
        outgoing.writeHead(200, { 'content-type': 'text/plain' }).end(`secure ${incoming.method}`)
      },
    )
    const host = await listen(server as unknown as Server)
    const trusting = nodeFetch({ ca: readFileSync(cert, 'utf8') })
    const response = await trusting(`https://${host}/v1/messages`, { method: 'POST', body: '{}' })
    expect(await response.text()).toBe('secure POST')

    const error = await rejectionOf(nodeFetch()(`https://${host}/`, { method: 'POST', body: '{}' }))
    expect(error).toBeInstanceOf(TypeError)
    expect((error.cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT')
  })

  it("hands a body it does not carry (a stream) to the platform's fetch", async () => {
    const server = await startServer({ script: () => text('via the fallback'), apiKey: 'test-key' })
    const handed: unknown[] = []
    const fetcher = nodeFetch({
      fallback: (input, init) => {
        handed.push(input)
        return fetch(input, init)
      },
    })
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(request())))
        controller.close()
      },
    })
    const response = await fetcher(`${server.url}/v1/messages`, {
      ...post(),
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(200)
    expect(handed).toEqual([`${server.url}/v1/messages`])
  })

  it('a status no Response can have (600) rejects as a failed fetch instead of throwing', async () => {
    const server = createServer((incoming, outgoing) => {
      incoming.resume()
      outgoing.writeHead(600, { 'content-type': 'text/plain' }).end('beyond HTTP')
    })
    const host = await listen(server)
    const error = await rejectionOf(nodeFetch()(`http://${host}/v1/messages`, post()))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('fetch failed')
    expect(error.cause).toBeInstanceOf(RangeError)
    const viaSdk = await rejectionOf(sdkOver({ url: `http://${host}` }).messages.create(request()))
    expect(viaSdk).toBeInstanceOf(Anthropic.APIConnectionError)
  })
})

/** Reads a body to its end, for the error it fails with. */
async function readToEnd(body: ReadableStream<Uint8Array> | null): Promise<void> {
  const reader = (body as ReadableStream<Uint8Array>).getReader()
  for (;;) if ((await reader.read()).done) return
}

const pause = (milliseconds: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, milliseconds))

describe('the idle timeout of the node:http fetch', () => {
  const idleTimeoutMs = 200

  it('fails a body whose server went silent mid-stream, as a dropped stream the agent retries', async () => {
    const server = await startServer({
      script: () => ({ fault: 'stall', afterEvents: 3, milliseconds: 60_000, turn: text('hi') }),
    })
    const fetcher = nodeFetch({ idleTimeoutMs })
    const response = await fetcher(`${server.url}/v1/messages`, post())
    expect(response.status).toBe(200)
    const error = await rejectionOf(readToEnd(response.body))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('terminated')
    expect(error.cause).toBeInstanceOf(IdleTimeoutError)

    const stream = sdkOver(server, { fetch: fetcher }).messages.stream(request())
    const viaSdk = await rejectionOf(stream.finalMessage())
    expect(viaSdk).not.toBeInstanceOf(Anthropic.APIUserAbortError)
    expect(classify(viaSdk).kind).toBe('retry')
  })

  it('rejects a request whose headers do not come as a failed connection; through the SDK, its connection error', async () => {
    const server = await startServer({ script: never, apiKey: 'test-key' })
    const fetcher = nodeFetch({ idleTimeoutMs })
    const error = await rejectionOf(fetcher(`${server.url}/v1/messages`, post()))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('fetch failed')
    expect(error.cause).toBeInstanceOf(IdleTimeoutError)
    const viaSdk = await rejectionOf(sdkOver(server, { fetch: fetcher }).messages.create(request()))
    expect(viaSdk).toBeInstanceOf(Anthropic.APIConnectionError)
  })

  it('counts silence, not the whole: a body that keeps coming for longer is read to its end', async () => {
    const server = createServer((incoming, outgoing) => {
      incoming.resume()
      outgoing.writeHead(200, { 'content-type': 'text/plain' })
      let sent = 0
      const timer = setInterval(() => {
        outgoing.write(String(sent))
        if (++sent === 10) {
          clearInterval(timer)
          outgoing.end()
        }
      }, idleTimeoutMs / 4)
    })
    const host = await listen(server)
    const response = await nodeFetch({ idleTimeoutMs })(`http://${host}/`)
    expect(await response.text()).toBe('0123456789')
  })

  it('does not count a reader that takes its time against the server', async () => {
    const waiting: ServerResponse[] = []
    const server = createServer((incoming, outgoing) => {
      incoming.resume()
      if (incoming.url === '/finish') {
        for (const stream of waiting.splice(0)) stream.end('b')
        outgoing.end()
        return
      }
      outgoing.writeHead(200, { 'content-type': 'text/plain' }).write('a')
      waiting.push(outgoing)
    })
    const host = await listen(server)
    const response = await nodeFetch({ idleTimeoutMs })(`http://${host}/stream`)
    // Nobody reads for twice the timeout: the first piece waits in the body, the socket paused.
    await pause(idleTimeoutMs * 2)
    await fetch(`http://${host}/finish`)
    expect(await response.text()).toBe('ab')
  })
})
