import { WebSocket } from 'ws'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkReplies, ContractViolation } from '../../../src/renderer/checked-api'
import {
  connectWebSocketApi,
  type SocketConstructor,
  type SocketLike,
  type WebSocketApi,
} from '../../../src/renderer/transport/websocket-api'
import { commands } from '../../../src/shared/contract'
import { startFixture, type Fixture } from './fixture'

/** The `ws` client as a browser would open it: with the page's Origin. */
function pageSocket(origin: string): SocketConstructor {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { origin })
    }
  }
}

type Listener = (event: { data: unknown; code: number; reason: string }) => void

/** A socket the test speaks for: it opens when told, and delivers the frames it is given. */
class ScriptedSocket implements SocketLike {
  static last: ScriptedSocket | null = null
  readonly sent: string[] = []
  private readonly listeners = new Map<string, Listener[]>()
  constructor() {
    ScriptedSocket.last = this
  }
  send(data: string): void {
    this.sent.push(data)
  }
  close(): void {}
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  fire(type: string, data: unknown = undefined): void {
    for (const listener of this.listeners.get(type) ?? [])
      listener({ data, code: 1000, reason: '' })
  }
}

describe('one validation per boundary', () => {
  let fixture: Fixture | null = null
  let api: WebSocketApi | null = null
  afterEach(async () => {
    api?.close()
    api = null
    await fixture?.dispose()
    fixture = null
    vi.restoreAllMocks()
  })

  it('a reply is parsed once on its way to the page, by the page', async () => {
    fixture = await startFixture()
    api = connectWebSocketApi({
      WebSocketImpl: pageSocket(fixture.origin),
      location: {
        protocol: 'http:',
        host: `127.0.0.1:${fixture.server.port}`,
        search: `?token=${fixture.server.token}`,
      },
    })
    // The server runs in this process: its parses would count here too.
    const schema = commands.getInfo.result
    const parse = vi.spyOn(schema, 'parse')
    const safeParse = vi.spyOn(schema, 'safeParse')
    expect(await checkReplies(api).getInfo({})).toMatchObject({ mode: 'browser' })
    expect(parse.mock.calls.length + safeParse.mock.calls.length).toBe(1)
  })

  it('the socket checks only its envelope: it hands on what it carries, and the page refuses a bad reply', async () => {
    api = connectWebSocketApi({
      url: 'ws://127.0.0.1:1/ws',
      WebSocketImpl: ScriptedSocket as unknown as SocketConstructor,
      probe: () => Promise.resolve(null),
    })
    const socket = ScriptedSocket.last as ScriptedSocket
    socket.fire('open')
    const batches: unknown[] = []
    api.onEvents((events) => batches.push(events))
    // An event of a later build: handed on as it came, for the store to parse and report.
    const later = { type: 'from-a-later-build', detail: 1 }
    socket.fire('message', JSON.stringify({ kind: 'events', events: [later] }))
    expect(batches).toEqual([[later]])

    const answer = (result: unknown): void => {
      const { id } = JSON.parse(socket.sent.at(-1) as string) as { id: number }
      socket.fire('message', JSON.stringify({ kind: 'response', id, ok: true, result }))
    }
    const raw = api.getInfo({})
    answer({ version: 3 })
    expect(await raw).toEqual({ version: 3 })
    const checked = checkReplies(api).getInfo({})
    answer({ version: 3 })
    await expect(checked).rejects.toBeInstanceOf(ContractViolation)
  })
})
