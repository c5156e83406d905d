import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket, type ClientOptions, type RawData } from 'ws'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { startBrowserServer, type BrowserServer } from '../../../src/server/browser-server'
import type { HostEvent } from '../../../src/shared/contract'
import type { ResponseFrame } from '../../../src/shared/wire'

export const INDEX_HTML = '<!doctype html><title>fixture</title><script src="app.js"></script>'
export const APP_JS = 'console.log("fixture")'
export const SECRET = 'the secret outside the static folder'

export interface Fixture {
  readonly root: string
  readonly workspace: string
  readonly staticDirectory: string
  readonly service: AppService
  readonly server: BrowserServer
  readonly origin: string
  /** A client with the good token and the page's own Origin (unless `options` say otherwise). */
  connect(options?: ClientOptions, url?: string): Promise<TestClient>
  /** Closes the server, the service and every client, then removes the folders. */
  dispose(): Promise<void>
}

/**
 * An AppService with no key (env {}) and a config folder of its own, and the browser server
 * over a tiny static folder. Beside that folder: secret.txt, and a link to it inside.
 */
export async function startFixture(): Promise<Fixture> {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-server-'))
  const workspace = join(root, 'workspace')
  const configDirectory = join(root, 'config')
  const staticDirectory = join(root, 'static')
  for (const folder of [workspace, configDirectory, join(staticDirectory, 'assets')])
    mkdirSync(folder, { recursive: true })
  writeFileSync(join(staticDirectory, 'index.html'), INDEX_HTML)
  writeFileSync(join(staticDirectory, 'app.js'), APP_JS)
  writeFileSync(join(staticDirectory, 'assets', 'style.css'), 'body{}')
  writeFileSync(join(root, 'secret.txt'), SECRET)
  symlinkSync(join(root, 'secret.txt'), join(staticDirectory, 'link.txt'))
  const service = await AppService.create({
    mode: 'browser',
    version: '1.2.3',
    configDirectory,
    secrets: plainFileSecretStore(join(configDirectory, 'settings.json')),
    env: {},
  })
  const server = await startBrowserServer({ service, staticDirectory })
  const clients = new Set<TestClient>()
  const origin = `http://127.0.0.1:${server.port}`
  const fixture: Fixture = {
    root,
    workspace,
    staticDirectory,
    service,
    server,
    origin,
    async connect(options = {}, url = socketUrl(fixture)) {
      const client = await TestClient.open(url, { origin, ...options })
      clients.add(client)
      return client
    },
    async dispose() {
      for (const client of clients) client.socket.terminate()
      await server.close()
      await service.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
  return fixture
}

export interface HttpAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** One HTTP request with full control of the target and headers (fetch would rewrite both). */
export function http(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end()
  })
}

export function socketUrl(fixture: Fixture, token: string | null = fixture.server.token): string {
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`
  return `ws://127.0.0.1:${fixture.server.port}/ws${query}`
}

/** The HTTP status an upgrade was refused with; fails if the socket opens instead. */
export function refusedUpgrade(url: string, options: ClientOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options)
    socket.on('unexpected-response', (request, response) => {
      resolve(response.statusCode ?? 0)
      response.resume()
      request.destroy()
    })
    socket.on('error', (error) => reject(error))
    socket.on('open', () => {
      socket.terminate()
      reject(new Error('the upgrade was accepted'))
    })
  })
}

type ServerFrame = ResponseFrame | { kind: 'events'; events: HostEvent[] }

/** A `ws` client that records every frame and answers requests by id. */
export class TestClient {
  readonly frames: ServerFrame[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  private nextId = 1
  private waiters: (() => void)[] = []

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: RawData) => {
      this.frames.push(JSON.parse(data.toString()) as ServerFrame)
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() })
        for (const wake of this.waiters.splice(0)) wake()
      }),
    )
  }

  static open(url: string, options: ClientOptions = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, options)
      socket.once('open', () => resolve(new TestClient(socket)))
      socket.once('error', reject)
    })
  }

  get events(): HostEvent[] {
    return this.frames.flatMap((frame) => (frame.kind === 'events' ? frame.events : []))
  }

  /** Waits for the next frame matching `predicate` among all received so far. */
  async waitForFrame(
    predicate: (frame: ServerFrame) => boolean,
    what: string,
    timeoutMs = 5000,
  ): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.frames.find(predicate)
      if (found) return found
      if (this.socket.readyState === WebSocket.CLOSED || Date.now() > deadline)
        throw new Error(`No frame with ${what}; got ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** Sends a request and waits for its response. */
  async request(command: string, params: unknown = {}): Promise<ResponseFrame> {
    const id = this.nextId++
    this.send({ kind: 'request', id, command, params })
    return (await this.waitForFrame(
      (frame) => frame.kind === 'response' && frame.id === id,
      `the response to ${command} #${id}`,
    )) as ResponseFrame
  }

  async waitForEvent(type: HostEvent['type']): Promise<HostEvent> {
    await this.waitForFrame(
      (frame) => frame.kind === 'events' && frame.events.some((event) => event.type === type),
      `a ${type} event`,
    )
    return this.events.find((event) => event.type === type) as HostEvent
  }
}
