import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createNodeFetch } from '../../../../src/main/runtime/model/node-fetch'
import { text } from '../../../../src/main/runtime/model/script'
import { offlineServers, rejectionOf, request } from './offline-harness'

const startServer = offlineServers()

function nodeFetch() {
  const fetcher = createNodeFetch()
  onTestFinished(() => fetcher.close())
  return fetcher
}

interface Echoed {
  readonly method: string
  readonly url: string
  readonly body: string
  readonly headers: IncomingMessage['headers']
}

/**
 * A server on 127.0.0.1: `/echo` answers with the request it got, `/redirect?status=&to=`
 * redirects there, `/hops/<n>` redirects n times before it reaches `/echo`, and `/v1/messages`
 * is moved (308) to the same path of `movedTo`.
 */
async function redirectingServer(
  movedTo?: string,
): Promise<{ origin: string; connections: () => number }> {
  let connections = 0
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.once('end', () => route(incoming, Buffer.concat(chunks).toString(), outgoing, movedTo))
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, connections: () => connections }
}

function route(
  incoming: IncomingMessage,
  body: string,
  outgoing: ServerResponse,
  movedTo: string | undefined,
): void {
  const url = new URL(incoming.url ?? '/', 'http://localhost')
  const hops = /^\/hops\/(\d+)$/.exec(url.pathname)
  if (url.pathname === '/v1/messages' && movedTo !== undefined) {
    outgoing.writeHead(308, { location: `${movedTo}${url.pathname}` }).end()
  } else if (url.pathname === '/redirect') {
    const status = Number(url.searchParams.get('status'))
    const location = url.searchParams.get('to')
    outgoing.writeHead(status, location === null ? {} : { location }).end('moved')
  } else if (hops) {
    const left = Number(hops[1])
    outgoing.writeHead(302, { location: left === 0 ? '/echo' : `/hops/${left - 1}` }).end()
  } else {
    const echoed: Echoed = {
      method: incoming.method ?? '',
      url: url.pathname,
      body,
      headers: incoming.headers,
    }
    outgoing.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echoed))
  }
}

const credentials = { authorization: 'Bearer secret', 'x-api-key': 'secret' }

function postTo(url: string, init: RequestInit = {}): Promise<Response> {
  return nodeFetch()(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-agent-name': 'alice', ...credentials },
    body: '{"payload":true}',
    ...init,
  })
}

async function echoed(response: Response): Promise<Echoed> {
  expect(response.status).toBe(200)
  return (await response.json()) as Echoed
}

describe('redirects in the node:http fetch', () => {
  it('307 and 308 resend the method and body; 301, 302 and 303 turn a POST into a GET without a body', async () => {
    const server = await redirectingServer()
    const fetcher = nodeFetch()
    const statuses = [307, 308, 301, 302, 303]
    const seen = []
    for (const status of statuses) {
      const response = await fetcher(`${server.origin}/redirect?status=${status}&to=/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...credentials },
        body: '{"payload":true}',
      })
      const { method, body, headers, url } = await echoed(response)
      seen.push({ status, method, body, type: headers['content-type'], url })
      // Same origin: the credentials go along.
      expect(headers['x-api-key']).toBe('secret')
      expect(headers.authorization).toBe('Bearer secret')
    }
    const resent = {
      method: 'POST',
      body: '{"payload":true}',
      type: 'application/json',
      url: '/echo',
    }
    const asGet = { method: 'GET', body: '', type: undefined, url: '/echo' }
    expect(seen).toEqual([
      { status: 307, ...resent },
      { status: 308, ...resent },
      { status: 301, ...asGet },
      { status: 302, ...asGet },
      { status: 303, ...asGet },
    ])
    // Each redirect was read to its end, so one kept-alive socket carried every request.
    expect(server.connections()).toBe(1)
  })

  it('resolves a relative location against the URL it was asked for', async () => {
    const server = await redirectingServer()
    const response = await postTo(`${server.origin}/redirect?status=308&to=echo?from=relative`)
    expect((await echoed(response)).url).toBe('/echo')
  })

  it('drops the credentials on a redirect to another origin, keeping the other headers', async () => {
    const first = await redirectingServer()
    const second = await redirectingServer()
    const target = encodeURIComponent(`${second.origin}/echo`)
    const { headers, body } = await echoed(
      await postTo(`${first.origin}/redirect?status=307&to=${target}`),
    )
    expect(headers.authorization).toBeUndefined()
    expect(headers['x-api-key']).toBeUndefined()
    expect(headers['x-agent-name']).toBe('alice')
    expect(body).toBe('{"payload":true}')
  })

  it('follows 20 redirects in a row, and fails the 21st', async () => {
    const server = await redirectingServer()
    expect((await echoed(await postTo(`${server.origin}/hops/19`))).url).toBe('/echo')
    const error = await rejectionOf(postTo(`${server.origin}/hops/20`))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('fetch failed')
    expect((error.cause as Error).message).toMatch(/more than 20 redirects/)
  })

  it("hands back the redirect for redirect: 'manual', fails on it for 'error', and returns one without a location", async () => {
    const server = await redirectingServer()
    const manual = await postTo(`${server.origin}/redirect?status=308&to=/echo`, {
      redirect: 'manual',
    })
    expect(manual.status).toBe(308)
    expect(manual.headers.get('location')).toBe('/echo')
    expect(await manual.text()).toBe('moved')

    const error = await rejectionOf(
      postTo(`${server.origin}/redirect?status=308&to=/echo`, { redirect: 'error' }),
    )
    expect(error).toBeInstanceOf(TypeError)

    const nowhere = await postTo(`${server.origin}/redirect?status=302`)
    expect(nowhere.status).toBe(302)
    expect(await nowhere.text()).toBe('moved')

    const elsewhere = encodeURIComponent('file:///etc/passwd')
    const refused = await rejectionOf(
      postTo(`${server.origin}/redirect?status=308&to=${elsewhere}`),
    )
    expect(refused).toBeInstanceOf(TypeError)
  })

  it('through the SDK, a turn redirected with a 308 streams from where it was sent', async () => {
    const model = await startServer({ script: () => text('moved on') })
    const front = await redirectingServer(model.url)
    const client = new Anthropic({
      apiKey: 'test-key',
      baseURL: front.origin,
      maxRetries: 0,
      fetch: nodeFetch(),
    })
    const message = await client.messages.stream(request()).finalMessage()
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'moved on' })])
    expect(model.requests).toHaveLength(1)
    // Another origin: the key stayed behind.
    expect(model.requests[0]?.headers['x-api-key']).toBeUndefined()
  })
})
