import { WebSocket } from 'ws'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  connectWebSocketApi,
  RemoteCommandError,
  type ConnectionState,
  type SocketConstructor,
  type WebSocketApi,
} from '../../../src/renderer/transport/websocket-api'
import { startBrowserServer, type BrowserServer } from '../../../src/server/browser-server'
import { hostEventSchema, type HostEvent } from '../../../src/shared/contract'
import { waitFor } from '../../helpers/wait'
import { startFixture, type Fixture } from './fixture'

/** The `ws` client as a browser would open it: with the page's Origin. */
function pageSocket(origin: string): SocketConstructor {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { origin })
    }
  }
}

describe('connectWebSocketApi against the real server', () => {
  let fixture: Fixture
  let api: WebSocketApi
  const states: ConnectionState[] = []
  let restarted: BrowserServer | null = null

  beforeEach(async () => {
    fixture = await startFixture()
    states.length = 0
    api = connectWebSocketApi({
      WebSocketImpl: pageSocket(fixture.origin),
      location: {
        protocol: 'http:',
        host: `127.0.0.1:${fixture.server.port}`,
        search: `?token=${fixture.server.token}`,
      },
    })
    api.onConnectionChange((state) => states.push(state))
  })
  afterEach(async () => {
    api.close()
    await restarted?.close()
    restarted = null
    await fixture.dispose()
  })

  it('queues a request made while connecting and resolves it with the parsed result', async () => {
    expect(await api.getInfo({})).toEqual({
      version: '1.2.3',
      workspace: null,
      mode: 'browser',
      // No key, but the offline model was not chosen: not offline (the first run offers it).
      offline: false,
    })
    expect(states).toEqual(['open'])
    const snapshot = await api.openWorkspace({ path: fixture.workspace })
    expect(snapshot.workspace).toBe(fixture.workspace)
  })

  it('rejects with the error frame’s name, code and message', async () => {
    const failure = await api
      .openWorkspace({ path: `${fixture.workspace}/absent` })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RemoteCommandError)
    expect(failure).toMatchObject({
      name: 'TeamError',
      code: 'not-found',
      message: expect.stringContaining('There is no folder'),
    })
  })

  it('delivers events in batches to onEvents listeners until they unsubscribe', async () => {
    const batches: HostEvent[][] = []
    const subscription = api.onEvents((events) =>
      batches.push(hostEventSchema.array().parse(events)),
    )
    await api.saveSettings({ useOfflineModel: true })
    await waitFor(
      () => batches.length > 0,
      () => 'an events batch',
    )
    expect(batches.flat()).toContainEqual(
      expect.objectContaining({
        type: 'settings-changed',
        settings: expect.objectContaining({ useOfflineModel: true }),
      }),
    )
    subscription.dispose()
    const seen = batches.length
    await api.saveSettings({ model: 'another-model' })
    await api.getInfo({})
    expect(batches).toHaveLength(seen)
  })

  it('rejects with "disconnected" after a drop, then reconnects on its own', async () => {
    await api.getInfo({})
    const { port, token } = fixture.server
    await fixture.server.close()
    await waitFor(
      () => states.includes('closed'),
      () => 'the closed state',
    )
    const refused = await api.getInfo({}).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 'disconnected' })
    // Words for the person: what happened and what to do, no command names.
    const { message } = refused as { message: string }
    expect(message).toMatch(/^Not connected to the Agent Teams server right now/)
    expect(message).toContain('agent-teams serve')
    expect(message).not.toContain('getInfo')
    restarted = await startBrowserServer({
      service: fixture.service,
      port,
      token,
      staticDirectory: fixture.staticDirectory,
    })
    await waitFor(
      () => states[states.length - 1] === 'open',
      () => 'a reconnect',
      {
        timeout: 10_000,
      },
    )
    expect(await api.getInfo({})).toMatchObject({ mode: 'browser' })
  })

  it('after a restart with a new token: says the address is no longer valid and stops trying', async () => {
    await api.getInfo({})
    const { port } = fixture.server
    await fixture.server.close()
    restarted = await startBrowserServer({
      service: fixture.service,
      port,
      staticDirectory: fixture.staticDirectory,
    })
    expect(restarted.token).not.toBe(fixture.server.token)
    await waitFor(
      () => states.includes('refused'),
      () => `the refused state (states: ${states.join(', ')})`,
      { timeout: 10_000 },
    )
    const refused = await api.getInfo({}).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RemoteCommandError)
    expect(refused).toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(/no longer valid.*agent-teams serve/),
    })
    // Final: it stays refused (a reconnect could only be refused again).
    expect(states[states.length - 1]).toBe('refused')
  })

  it('while the server is away it keeps trying: a refused connection is not a refused token', async () => {
    await api.getInfo({})
    await fixture.server.close()
    await waitFor(
      () => states.filter((state) => state === 'connecting').length >= 2,
      () => `a second attempt (states: ${states.join(', ')})`,
      { timeout: 10_000 },
    )
    expect(states).not.toContain('refused')
  })
})
