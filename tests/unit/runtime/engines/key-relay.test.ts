import { describe, expect, it, onTestFinished } from 'vitest'
import { OfflineModelServer } from '../../../../src/offline-model/offline-server'
import { text } from '../../../../src/offline-model/script'
import { KeyRelay } from '../../../../src/runtime/engines/claude-code/key-relay'

async function post(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  })
  await response.text()
  return response.status
}

describe("the key relay: Claude Code's way to the model without the team's key", () => {
  it('forwards a live token with the real key, and refuses an unknown or revoked one', async () => {
    const server = await OfflineModelServer.start({
      script: () => text('hello'),
      apiKey: 'real-key',
    })
    onTestFinished(() => server.close())
    const relay = new KeyRelay(() => ({ apiKey: 'real-key', baseURL: server.url, model: 'm' }))
    onTestFinished(() => relay.close())
    const url = await relay.url()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const token = relay.issue('alice')
    expect(token).not.toContain('real-key')
    expect(await post(url, token)).toBe(200)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers['x-api-key']).toBe('real-key')
    // It meters what the answer reported, per model.
    const metered = relay.usage(token).get('m')
    expect(metered?.output_tokens).toBeGreaterThan(0)
    expect(metered?.input_tokens).toBeGreaterThan(0)
    expect(await post(url, 'real-key')).toBe(401)
    expect(await post(url, `${token}x`)).toBe(401)
    // A streamed answer is metered from its events, and passed on whole.
    const streamed = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': token,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model: 'm',
        max_tokens: 10,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    })
    const events = await streamed.text()
    expect(events).toContain('message_stop')
    expect(relay.usage(token).get('m')?.output_tokens).toBeGreaterThan(metered?.output_tokens ?? 0)
    relay.revoke(token)
    expect(await post(url, token)).toBe(401)
    expect(server.requests).toHaveLength(2)
  })
})
