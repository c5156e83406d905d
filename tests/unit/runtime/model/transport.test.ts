import { createServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { getCACertificates } from 'node:tls'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { classify, retryNotice } from '../../../../src/runtime/agents/model-turn'
import { ModelClient } from '../../../../src/runtime/model/client'
import { createTransport, trustedCertificates } from '../../../../src/runtime/model/transport'
import { text } from '../../../../src/offline-model/script'
import { offlineServers, request } from '../../../helpers/offline-harness'

const startServer = offlineServers()

/**
 * A real HTTP proxy on 127.0.0.1: CONNECT tunnels and absolute-URL forwarding, as a company
 * proxy does. It records what it was asked for.
 */
async function startProxy(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = []
  const sockets = new Set<Socket>()
  const proxy = createServer((incoming, response) => {
    seen.push(`${incoming.method} ${incoming.url}`)
    const target = new URL(incoming.url ?? '')
    const upstream = httpRequest(
      target,
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    incoming.pipe(upstream)
  })
  proxy.on('connect', (incoming, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${incoming.url}`)
    const [host, port] = (incoming.url ?? '').split(':')
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client).pipe(upstream)
    })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.once('close', () => sockets.delete(socket))
    }
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve())
        proxy.closeAllConnections()
        for (const socket of sockets) socket.destroy()
      }),
  )
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, seen }
}

async function turnThrough(env: NodeJS.ProcessEnv | undefined, baseURL: string): Promise<string> {
  const transport = createTransport(env)
  onTestFinished(() => transport.dispatcher.close())
  const client = new ModelClient({ apiKey: 'k', baseURL, model: 'm', maxRetries: 0, transport })
  const turn = await client.turn({
    agent: 'alice',
    system: 's',
    messages: request().messages,
    tools: [],
  })
  return turn.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
}

describe('the model transport', () => {
  it('sends model requests through HTTP_PROXY (the offline server is plain http)', async () => {
    const server = await startServer({ script: () => text('via the proxy') })
    const proxy = await startProxy()
    const host = new URL(server.url).host
    const answer = await turnThrough({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, server.url)
    expect(answer).toBe('via the proxy')
    // undici tunnels through the proxy with CONNECT, even to a plain-http endpoint.
    expect(proxy.seen.length).toBeGreaterThan(0)
    expect(proxy.seen.every((line) => line.includes(host))).toBe(true)
    expect(server.requests).toHaveLength(1)
  })

  it("reads the proxy from the process's environment by default", async () => {
    const server = await startServer({ script: () => text('from the environment') })
    const proxy = await startProxy()
    vi.stubEnv('HTTP_PROXY', proxy.url)
    vi.stubEnv('NO_PROXY', '')
    onTestFinished(() => void vi.unstubAllEnvs())
    expect(await turnThrough(undefined, server.url)).toBe('from the environment')
    expect(proxy.seen.length).toBeGreaterThan(0)
  })

  it('goes straight to a host NO_PROXY names', async () => {
    const server = await startServer({ script: () => text('direct') })
    const proxy = await startProxy()
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }
    expect(await turnThrough(env, server.url)).toBe('direct')
    expect(proxy.seen).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('fails each model request with a clear message when a proxy variable is not a URL', async () => {
    const server = await startServer({ script: () => text('unreachable') })
    const error = await turnThrough({ HTTPS_PROXY: 'proxy.example:3128' }, server.url).then(
      () => null,
      (failure: unknown) => failure as Error,
    )
    expect(error?.message).toMatch(/HTTPS_PROXY="proxy.example:3128" is not a URL/)
    expect(server.requests).toEqual([])
    // The agent gives up at once with that message: retrying cannot fix a setting.
    expect(classify(error)).toEqual({
      kind: 'fatal',
      code: 'transport-setting',
      message: error?.message,
    })
  })

  it("trusts the system's certificate authorities beside Node's own", () => {
    const trusted = new Set(trustedCertificates())
    for (const certificate of getCACertificates('default'))
      expect(trusted.has(certificate)).toBe(true)
    for (const certificate of getCACertificates('system'))
      expect(trusted.has(certificate)).toBe(true)
  })
})

describe('what the person reads when the endpoint cannot be reached', () => {
  it('names the unreachable endpoint and the cause, not "Connection error."', async () => {
    // A port that was just free: nothing listens, so the connection is refused.
    const server = await startServer({ script: () => text('gone') })
    const baseURL = server.url
    await server.close()
    const error = await turnThrough({}, baseURL).then(
      () => null,
      (failure: unknown) => failure,
    )
    const failure = classify(error)
    expect(failure.kind).toBe('retry')
    expect(failure.message).toBe(
      'Cannot reach the model endpoint (ECONNREFUSED); check the network and the base URL in Settings',
    )
  })

  it('says a retry in whole sentences, whatever punctuation the cause ends with', () => {
    expect(retryNotice('the endpoint answered 529: Overloaded.', 4000, 2, 5)).toBe(
      'The endpoint answered 529: Overloaded. Retrying in 4.0 s (attempt 2 of 5).',
    )
    expect(retryNotice('Connection error.', 250, 3, 5)).toBe(
      'Connection error. Retrying in 250 ms (attempt 3 of 5).',
    )
  })
})
