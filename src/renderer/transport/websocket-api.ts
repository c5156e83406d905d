import {
  commandsOver,
  type AgentTeamsApi,
  type CommandError,
  type CommandName,
} from '../../shared/contract'
import {
  eventsFrameSchema,
  MAX_REQUEST_FRAME_BYTES,
  responseFrameSchema,
  type RequestFrame,
} from '../../shared/wire'

/**
 * Browser mode's side of the contract: the same AgentTeamsApi the preload gives Electron, carried
 * over the WebSocket of `agent-teams serve` (frames in src/shared/wire.ts). Written against the
 * few members of a WebSocket it uses, so that tests can hand it the `ws` package's class.
 */

/**
 * `refused`: the server answers but refuses this page's token (it was restarted and has a new
 * one). That is final: no reconnect can succeed, only the new address.
 */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused'

/** The part of a WebSocket this client uses (the browser's, or the `ws` package's). */
export interface SocketLike {
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'open' | 'error', listener: () => void): void
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}
export type SocketConstructor = new (url: string) => SocketLike

/** The part of `window.location` used to find the server and the token. */
export interface LocationLike {
  readonly protocol: string
  readonly host: string
  readonly search: string
}

export interface WebSocketApiOptions {
  /** The socket's address; default `ws(s)://<location.host>/ws?token=<the page's ?token=>`. */
  readonly url?: string
  /** Default: the browser's WebSocket. */
  readonly WebSocketImpl?: SocketConstructor
  /** Default: the page's location. */
  readonly location?: LocationLike
  /**
   * The HTTP status the server gives the socket's address as a plain GET, or null when it does
   * not answer. A browser never sees why an upgrade failed, so a failed connect asks this way:
   * 401 or 403 means the token is no longer valid. Default: `fetch`.
   */
  readonly probe?: (url: string) => Promise<number | null>
}

export type WebSocketApi = AgentTeamsApi & {
  /** Closes the socket for good: no reconnect; pending requests reject with 'disconnected'. */
  close(): void
  /** Called on every change of the connection; returns the unsubscribe function. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void
}

/** A command that failed: `name` and `code` as the server sent them (the error taxonomy). */
export class RemoteCommandError extends Error {
  readonly code: string
  constructor(error: CommandError) {
    super(error.message)
    this.name = error.name
    this.code = error.code
  }
}

/** The first wait before a reconnect, doubled after each failed attempt up to the maximum. */
export const RECONNECT_INITIAL_MS = 250
export const RECONNECT_MAX_MS = 5000

interface Pending {
  readonly command: CommandName
  /** The request frame, until it is sent. */
  text: string | null
  resolve(result: unknown): void
  reject(error: Error): void
}

interface BrowserGlobals {
  readonly WebSocket?: SocketConstructor
  readonly location?: LocationLike
}

export function socketUrl(location: LocationLike): string {
  const token = new URLSearchParams(location.search).get('token')
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  // Without a token in the address the server relies on the cookie it set with the page.
  return `${scheme}//${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`
}

function disconnected(message: string): RemoteCommandError {
  return new RemoteCommandError({ name: 'ConnectionError', code: 'disconnected', message })
}

/** What the person is told once the server refuses the page's token. */
export const TOKEN_REFUSED =
  'This address is no longer valid: the Agent Teams server was restarted and has a new address. Open the address "agent-teams serve" printed when it started (it ends in ?token=…).'

/** The socket's address as plain HTTP, asked with the page's cookie (same origin). */
async function probeOverHttp(url: string): Promise<number | null> {
  try {
    const response = await fetch(url.replace(/^ws/, 'http'), {
      credentials: 'same-origin',
      cache: 'no-store',
    })
    return response.status
  } catch {
    // Not answering at all: the server is down, which a reconnect may outlive.
    return null
  }
}

/**
 * Connects at once and keeps connecting: after a drop it retries with backoff (250 ms doubling
 * to 5 s) and resends nothing. Requests made while connecting wait for the socket to open;
 * requests made while disconnected, and requests still unanswered when the socket drops, reject
 * with code 'disconnected' (the UI can re-read what it needs on the next 'open').
 */
export function connectWebSocketApi(options: WebSocketApiOptions = {}): WebSocketApi {
  const globals = globalThis as BrowserGlobals
  const Impl = options.WebSocketImpl ?? globals.WebSocket
  if (Impl === undefined) throw new Error('There is no WebSocket implementation here.')
  const location = options.location ?? globals.location
  if (options.url === undefined && location === undefined)
    throw new Error('connectWebSocketApi needs a url where there is no window.location.')
  const url = options.url ?? socketUrl(location as LocationLike)
  const probe = options.probe ?? probeOverHttp

  const pending = new Map<number, Pending>()
  const eventListeners = new Set<(events: readonly unknown[]) => void>()
  const stateListeners = new Set<(state: ConnectionState) => void>()
  let nextId = 1
  let state: ConnectionState = 'connecting'
  let socket: SocketLike | null = null
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let retryDelay = RECONNECT_INITIAL_MS
  let closedForGood = false
  let refused = false

  const setState = (next: ConnectionState): void => {
    if (state === next) return
    state = next
    for (const listener of [...stateListeners]) listener(next)
  }

  const rejectAll = (message: (command: CommandName) => string): void => {
    const all = [...pending.values()]
    pending.clear()
    for (const request of all) request.reject(disconnected(message(request.command)))
  }

  const connect = (): void => {
    retryTimer = null
    setState('connecting')
    const current = new Impl(url)
    socket = current
    let opened = false
    current.addEventListener('open', () => {
      if (socket !== current) return
      opened = true
      retryDelay = RECONNECT_INITIAL_MS
      // The queue goes first, so requests made by 'open' listeners come after it.
      for (const request of pending.values()) {
        if (request.text === null) continue
        current.send(request.text)
        request.text = null
      }
      setState('open')
    })
    current.addEventListener('message', (event) => {
      if (socket === current) receive(event.data)
    })
    current.addEventListener('close', () => {
      if (socket !== current) return
      socket = null
      rejectAll(
        (command) =>
          `The connection to the Agent Teams server was lost before ${command} was answered; is "agent-teams serve" still running?`,
      )
      setState('closed')
      if (opened) return scheduleReconnect()
      // It never opened: find out whether the server is away or refuses the token.
      void probe(url).then((status) => {
        if (closedForGood || socket !== null || retryTimer !== null) return
        if (status === 401 || status === 403) refuse()
        else scheduleReconnect()
      })
    })
    // An 'error' is always followed by 'close', which does the work.
    current.addEventListener('error', () => {})
  }

  const scheduleReconnect = (): void => {
    retryTimer = setTimeout(connect, retryDelay)
    retryDelay = Math.min(retryDelay * 2, RECONNECT_MAX_MS)
  }

  const refuse = (): void => {
    closedForGood = true
    refused = true
    rejectAll(() => TOKEN_REFUSED)
    setState('refused')
  }

  const receive = (data: unknown): void => {
    let value: unknown
    try {
      value = JSON.parse(String(data))
    } catch {
      console.error('[agent-teams] skipped a server frame that is not JSON')
      return
    }
    const kind = typeof value === 'object' && value !== null && 'kind' in value ? value.kind : null
    if (kind === 'events') return deliverEvents(value)
    const frame = responseFrameSchema.safeParse(value)
    if (!frame.success) {
      console.error('[agent-teams] skipped an invalid server frame:', frame.error.message)
      return
    }
    const request = pending.get(frame.data.id)
    if (request === undefined) return
    pending.delete(frame.data.id)
    // Only the envelope is checked here: the result is parsed once, by checkReplies.
    if (frame.data.ok) request.resolve(frame.data.result)
    else request.reject(new RemoteCommandError(frame.data.error))
  }

  const deliverEvents = (value: unknown): void => {
    const frame = eventsFrameSchema.safeParse(value)
    if (!frame.success) {
      console.error('[agent-teams] skipped an invalid events frame:', frame.error.message)
      return
    }
    // Each event is parsed once, by the store that folds it (receiveEvents).
    for (const listener of [...eventListeners]) {
      try {
        listener(frame.data.events)
      } catch (error) {
        console.error('[agent-teams] an events listener failed:', error)
      }
    }
  }

  const request = (command: CommandName, params: unknown): Promise<unknown> => {
    if (refused)
      return Promise.reject(
        new RemoteCommandError({
          name: 'ConnectionError',
          code: 'unauthorized',
          message: TOKEN_REFUSED,
        }),
      )
    if (state === 'closed')
      return Promise.reject(
        disconnected(
          closedForGood
            ? 'The connection to the Agent Teams server is closed, so this was not sent. Reload the page; if it does not come back, start "agent-teams serve" again.'
            : 'Not connected to the Agent Teams server right now (reconnecting), so this was not sent. Try again in a moment; if it keeps failing, check that "agent-teams serve" is still running.',
        ),
      )
    const id = nextId++
    const frame: RequestFrame = { kind: 'request', id, command, params: params ?? {} }
    const text = JSON.stringify(frame)
    // The server closes the socket on an oversized frame; refuse it here instead.
    if (
      text.length * 3 > MAX_REQUEST_FRAME_BYTES &&
      new TextEncoder().encode(text).length > MAX_REQUEST_FRAME_BYTES
    )
      return Promise.reject(
        new RemoteCommandError({
          name: 'TeamError',
          code: 'message-too-large',
          message: `The request ${command} is larger than the ${MAX_REQUEST_FRAME_BYTES / (1024 * 1024)} MB a request may carry.`,
        }),
      )
    return new Promise((resolve, reject) => {
      const current = state === 'open' ? socket : null
      pending.set(id, { command, text: current === null ? text : null, resolve, reject })
      current?.send(text)
    })
  }

  const api = commandsOver(request)

  const extras: Pick<WebSocketApi, 'onEvents' | 'close' | 'onConnectionChange'> = {
    onEvents(listener) {
      eventListeners.add(listener)
      return { dispose: () => void eventListeners.delete(listener) }
    },
    onConnectionChange(listener) {
      stateListeners.add(listener)
      return () => void stateListeners.delete(listener)
    },
    close() {
      if (closedForGood) return
      closedForGood = true
      if (retryTimer !== null) clearTimeout(retryTimer)
      retryTimer = null
      const current = socket
      socket = null
      current?.close(1000, 'The page closed the connection.')
      rejectAll((command) => `The connection was closed before ${command} was answered.`)
      setState('closed')
      eventListeners.clear()
      stateListeners.clear()
    },
  }

  connect()
  return { ...api, ...extras } as WebSocketApi
}
