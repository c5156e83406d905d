import { WebSocket } from 'ws'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_FRAME_BYTES } from '../../../src/shared/wire'
import { refusedUpgrade, socketUrl, startFixture, type Fixture } from './fixture'

describe('browser server: the WebSocket', () => {
  let fixture: Fixture
  beforeEach(async () => {
    fixture = await startFixture()
  })
  afterEach(() => fixture.dispose())

  it('answers commands with the contract: getInfo, getSettings, openWorkspace', async () => {
    const client = await fixture.connect()
    expect(await client.request('getInfo')).toEqual({
      kind: 'response',
      id: 1,
      ok: true,
      result: { version: '1.2.3', workspace: null, mode: 'browser', offline: false },
    })
    const settings = await client.request('getSettings')
    expect(settings).toMatchObject({
      ok: true,
      result: { apiKeySet: false, apiKeySource: 'none', secretStorage: 'plain-file' },
    })
    const opened = await client.request('openWorkspace', { path: fixture.workspace })
    expect(opened).toMatchObject({
      ok: true,
      result: { workspace: fixture.workspace, lead: { name: 'lead' }, members: [] },
    })
  })

  it('delivers the events a command caused before its response', async () => {
    const client = await fixture.connect()
    const opened = await client.request('openWorkspace', { path: fixture.workspace })
    const responseAt = client.frames.indexOf(opened)
    const eventsAt = client.frames.findIndex(
      (frame) =>
        frame.kind === 'events' && frame.events.some((event) => event.type === 'workspace-opened'),
    )
    expect(eventsAt).toBeGreaterThanOrEqual(0)
    expect(eventsAt).toBeLessThan(responseAt)
  })

  it('batches events into events frames: sendMessage to the lead yields message-sent', async () => {
    const client = await fixture.connect()
    const other = await fixture.connect()
    // No key (env {}): the offline model lets the team run; the lead stays asleep.
    await client.request('saveSettings', { useOfflineModel: true, leadWakesOnMessages: false })
    await client.request('openWorkspace', { path: fixture.workspace })
    const sent = await client.request('sendMessage', { to: 'lead', content: 'hello, lead' })
    expect(sent).toMatchObject({ ok: true, result: { id: expect.any(String) } })
    const event = await other.waitForEvent('message-sent')
    expect(event).toMatchObject({
      type: 'message-sent',
      message: { from: 'user', to: 'lead', content: 'hello, lead' },
    })
    expect(other.frames.every((frame) => frame.kind === 'events')).toBe(true)
    expect(other.events.map((each) => each.type)).toContain('settings-changed')
  })

  it('answers invalid parameters and unknown commands with invalid-argument errors', async () => {
    const client = await fixture.connect()
    const invalid = await client.request('openWorkspace', { path: 5 })
    expect(invalid).toMatchObject({
      kind: 'response',
      ok: false,
      error: { name: 'TeamError', code: 'invalid-argument' },
    })
    const unknown = await client.request('formatDisk')
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument', message: 'Unknown command "formatDisk".' },
    })
    client.send({ kind: 'request', id: 99, command: 'getInfo', params: {}, extra: true })
    const extra = await client.waitForFrame(
      (frame) => frame.kind === 'response' && frame.id === 99,
      'the answer to frame 99',
    )
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid-argument' } })
    expect(await client.request('getInfo')).toMatchObject({ ok: true })
  })

  it('closes with 1008 on a frame it cannot answer (not JSON, no id, binary)', async () => {
    for (const frame of ['{not json', JSON.stringify({ kind: 'request' }), Buffer.from([1, 2])]) {
      const client = await fixture.connect()
      if (typeof frame === 'string') client.send(frame)
      else client.socket.send(frame)
      const closed = await client.closed
      expect(closed.code).toBe(1008)
      expect(closed.reason.length).toBeGreaterThan(0)
    }
  })

  it('refuses a frame over MAX_FRAME_BYTES (1009)', async () => {
    const client = await fixture.connect({ maxPayload: 0 })
    client.send('x'.repeat(MAX_FRAME_BYTES + 1))
    expect((await client.closed).code).toBe(1009)
  })

  it('accepts the cookie instead of ?token=', async () => {
    const client = await fixture.connect(
      { headers: { cookie: `agent_teams_${fixture.server.port}=${fixture.server.token}` } },
      socketUrl(fixture, null),
    )
    expect(await client.request('getInfo')).toMatchObject({ ok: true })
  })

  it('refuses a bad token (401), a foreign or missing Origin (403), a foreign Host (421)', async () => {
    const origin = fixture.origin
    expect(await refusedUpgrade(socketUrl(fixture, 'wrong'), { origin })).toBe(401)
    expect(await refusedUpgrade(socketUrl(fixture, null), { origin })).toBe(401)
    expect(await refusedUpgrade(socketUrl(fixture), { origin: 'http://evil.example' })).toBe(403)
    expect(
      await refusedUpgrade(socketUrl(fixture), {
        origin: `http://127.0.0.1:${fixture.server.port + 1}`,
      }),
    ).toBe(403)
    expect(await refusedUpgrade(socketUrl(fixture))).toBe(403)
    expect(
      await refusedUpgrade(socketUrl(fixture), {
        origin,
        headers: { host: `evil.example:${fixture.server.port}` },
      }),
    ).toBe(421)
    const elsewhere = socketUrl(fixture).replace('/ws?', '/other?')
    expect(await refusedUpgrade(elsewhere, { origin })).toBe(404)
  })

  it('close() resolves with a client connected, which sees 1001', async () => {
    const client = await fixture.connect()
    await client.request('getInfo')
    await fixture.server.close()
    expect((await client.closed).code).toBe(1001)
    expect(client.socket.readyState).toBe(WebSocket.CLOSED)
  })
})
