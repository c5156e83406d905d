import { createReadStream } from 'node:fs'
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { WebSocketServer, type WebSocket } from 'ws'
import type { CommandService } from '../shared/command-service'
import { policyMetaTag, productionContentSecurityPolicy } from '../shared/content-security-policy'
import { MAX_REQUEST_FRAME_BYTES } from '../shared/wire'
import {
  authorize,
  generateToken,
  isOwnHost,
  isOwnOrigin,
  splitTarget,
  tokenCookie,
} from './access'
import { EventBatcher } from './event-batcher'
import { firstViewPages, type FirstViewPages } from './first-view-page'
import { lookupStaticFile } from './static-files'
import { serveSocket } from './socket-session'
import { TOKEN_PAGE, TOKEN_PAGE_POLICY, wantsPage } from './token-page'

export interface BrowserServerOptions {
  /** The slice of AppService the server uses. */
  readonly service: CommandService
  /** 0 (the default) picks a free port. */
  readonly port?: number
  /** The built renderer (out/renderer). */
  readonly staticDirectory: string
  /** The per-launch secret; default 32 random bytes, base64url. */
  readonly token?: string
  /** Where failures that are bugs (code 'internal') are reported; default console.error. */
  readonly reportInternal?: (command: string, error: unknown) => void
  /**
   * Draw the team into the page served (src/shared/first-view.ts), from the bundle built beside
   * the static directory; default true. Off, index.html is served as built.
   */
  readonly firstView?: boolean
}

export interface BrowserServer {
  /** `http://127.0.0.1:PORT/?token=…`: the address to open. */
  readonly url: string
  readonly port: number
  readonly token: string
  /** Stops listening, closes every socket and timer; resolves even with clients connected. */
  close(): Promise<void>
}

/** The WebSocket's path; the page is everything else. */
export const SOCKET_PATH = '/ws'
/** How long a client gets to answer our close frame before its socket is cut. */
const CLOSE_GRACE_MS = 1000

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': productionContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
}

const UNAUTHORIZED =
  'This Agent Teams server needs its token. Open the full address that "agent-teams serve" printed (it ends in ?token=…).'

const FOREIGN_ORIGIN = (port: number): string =>
  `A request that is not GET or HEAD is accepted only from this app's own page (Origin http://127.0.0.1:${port}); this one came from elsewhere or named no Origin.`

/**
 * Browser mode: the built renderer over HTTP and the contract over a WebSocket at /ws, on
 * 127.0.0.1 only. Every request and upgrade must carry the token (`?token=` or the cookie the
 * page gets when opened with it); Host must name this server (guards against DNS rebinding);
 * the Origin of an upgrade and of every request that is not GET or HEAD must be this server's
 * own page. No CORS headers are ever sent.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? generateToken()
  const server = createServer()
  const sockets = new Set<Socket>()
  // Known once listening; no request can arrive before.
  let port = 0
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_FRAME_BYTES })
  const batcher = new EventBatcher((frames) => {
    for (const client of wss.clients) {
      if (client.readyState !== client.OPEN) continue
      for (const frame of frames) client.send(frame)
    }
  })

  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  const reportInternal =
    options.reportInternal ??
    ((command, error) => console.error(`[agent-teams serve] ${command} failed:`, error))
  // Made once listening (no request comes before), so its loading follows the start.
  let firstView: FirstViewPages | null = null
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const site = { token, port, staticDirectory: options.staticDirectory, firstView }
    handleRequest(request, response, site).catch(() => response.destroy())
  })
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const refusal = upgradeRefusal(request, token, port)
    if (refusal !== null) {
      refuseUpgrade(socket, refusal.status, refusal.message)
      return
    }
    wss.handleUpgrade(request, socket, head, (client) => {
      serveSocket(client, {
        runner: options.service,
        beforeResponse: () => batcher.flush(),
        reportInternal,
      })
    })
  })

  await listen(server, options.port ?? 0)
  port = (server.address() as AddressInfo).port
  if (options.firstView !== false)
    firstView = firstViewPages({
      staticDirectory: options.staticDirectory,
      service: options.service,
      report: (error) => reportInternal('the first view', error),
    })
  const subscription = options.service.onEvent((event) => batcher.push(event))

  let closing: Promise<void> | null = null
  const close = async (): Promise<void> => {
    subscription.dispose()
    firstView?.close()
    batcher.dispose()
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
    await Promise.all([...wss.clients].map(closeClient))
    await new Promise<void>((resolve) => wss.close(() => resolve()))
    server.closeAllConnections()
    for (const socket of sockets) socket.destroy()
    await stopped
  }
  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: () => (closing ??= close()),
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function closeClient(client: WebSocket): Promise<void> {
  if (client.readyState === client.CLOSED) return Promise.resolve()
  return new Promise((resolve) => {
    const cut = setTimeout(() => client.terminate(), CLOSE_GRACE_MS)
    client.once('close', () => {
      clearTimeout(cut)
      resolve()
    })
    client.close(1001, 'The Agent Teams server is shutting down.')
  })
}

function upgradeRefusal(
  request: IncomingMessage,
  token: string,
  port: number,
): { status: number; message: string } | null {
  if (!isOwnHost(request.headers.host, port))
    return { status: 421, message: `This server answers only to 127.0.0.1:${port}.` }
  if (splitTarget(request.url ?? '/').path !== SOCKET_PATH)
    return { status: 404, message: `The WebSocket is at ${SOCKET_PATH}.` }
  if (!isOwnOrigin(request.headers.origin, port))
    return { status: 403, message: 'WebSockets are accepted only from the app’s own page.' }
  if (authorize(request, token, port) === 'refused') return { status: 401, message: UNAUTHORIZED }
  return null
}

/** Answers a refused upgrade in plain HTTP, then closes the socket once that is written. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = `${message}\n`
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.once('finish', () => socket.destroy())
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`)
}

function replyText(response: ServerResponse, status: number, message: string): void {
  const body = `${message}\n`
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  response.end(body)
}

/** The wrong-token page, under a policy that allows its own style and icon only. */
function replyTokenPage(response: ServerResponse): void {
  response.writeHead(401, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(TOKEN_PAGE),
    'content-security-policy': TOKEN_PAGE_POLICY,
    'cache-control': 'no-store',
  })
  response.end(TOKEN_PAGE)
}

/** What a request is answered from. */
interface Site {
  readonly token: string
  readonly port: number
  readonly staticDirectory: string
  readonly firstView: FirstViewPages | null
}

async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  { token, port, staticDirectory, firstView }: Site,
): Promise<void> {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value)
  if (!isOwnHost(request.headers.host, port))
    return replyText(response, 421, `This server answers only to 127.0.0.1:${port}.`)
  const changesState = request.method !== 'GET' && request.method !== 'HEAD'
  // Checked before the token: a request another page makes the browser send is refused even
  // when the browser attached our cookie to it.
  if (changesState && !isOwnOrigin(request.headers.origin, port))
    return replyText(response, 403, FOREIGN_ORIGIN(port))
  const authorization = authorize(request, token, port)
  if (authorization === 'refused')
    return wantsPage(request.headers.accept)
      ? replyTokenPage(response)
      : replyText(response, 401, UNAUTHORIZED)
  if (authorization === 'query') response.setHeader('set-cookie', tokenCookie(token, port))
  if (changesState) {
    response.setHeader('allow', 'GET, HEAD')
    return replyText(response, 405, `${request.method ?? 'This method'} is not allowed here.`)
  }
  const { path } = splitTarget(request.url ?? '/')
  if (path === SOCKET_PATH)
    return replyText(response, 426, 'This address is the WebSocket; connect with one.')
  const found = await lookupStaticFile(staticDirectory, path)
  if (found.kind === 'bad-path') return replyText(response, 400, 'That path is not allowed.')
  if (found.kind === 'not-found') return replyText(response, 404, 'Not found.')
  const page =
    firstView !== null && request.method === 'GET' && isIndexPage(path)
      ? await firstView.page()
      : null
  if (page !== null) {
    const body = withoutPolicyMeta(page)
    // Drawn from the team's state of this moment: never kept.
    response.writeHead(200, {
      'content-type': found.contentType,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    })
    return void response.end(body)
  }
  response.writeHead(200, {
    'content-type': found.contentType,
    'content-length': found.size,
    'cache-control': found.cacheControl,
  })
  if (request.method === 'HEAD') return void response.end()
  await pipeline(createReadStream(found.path), response)
}

function isIndexPage(path: string): boolean {
  return path === '/' || path === '/index.html'
}

/**
 * The page's meta tag states the very policy every response here carries as a header
 * (SECURITY_HEADERS): the page drawn here goes without it, as Chromium, meeting a policy in a
 * meta tag, holds back the stylesheet the first view waits on (measured: about 60 ms of a
 * 300 ms first paint). A tag that says anything else is left in place.
 */
export function withoutPolicyMeta(page: string): string {
  return page.replace(policyMetaTag, (tag, policy: string) =>
    policy === productionContentSecurityPolicy ? '' : tag,
  )
}
