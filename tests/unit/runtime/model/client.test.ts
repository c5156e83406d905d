import { connect, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { ModelClient } from '../../../../src/runtime/model/client'
import { text } from '../../../../src/offline-model/script'
import { offlineServers, request } from '../../../helpers/offline-harness'

const startServer = offlineServers()

/** A TCP relay to `target` that counts the connections made to it. */
async function countingRelay(target: string): Promise<{ url: string; connections: () => number }> {
  const { port } = new URL(target)
  const sockets = new Set<Socket>()
  let connections = 0
  const relay = createServer((client) => {
    connections++
    const upstream = connect(Number(port), '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      // Either end closing ends the other; its error is the other end's close.
      socket.on('error', () => undefined)
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  )
  const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`
  return { url, connections: () => connections }
}

describe('ModelClient', () => {
  it('shares one keep-alive pool between clients, as the host makes one per endpoint setting', async () => {
    const server = await startServer({ script: () => text('pooled') })
    const relay = await countingRelay(server.url)
    const turns = []
    const models = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth']
    for (const model of models) {
      const client = new ModelClient({ apiKey: 'k', baseURL: relay.url, model, maxRetries: 0 })
      turns.push(
        await client.turn({ agent: 'alice', system: 's', messages: request().messages, tools: [] }),
      )
    }
    expect(turns.map((turn) => turn.content)).toEqual(
      Array(6).fill([expect.objectContaining({ type: 'text', text: 'pooled' })]),
    )
    expect(server.requests.map((entry) => entry.body.model)).toEqual(models)
    // A pool per client would have opened a socket for each, and kept it open to the end; the
    // shared one may open a second while the first is being handed back after its stream.
    expect(relay.connections()).toBeLessThanOrEqual(2)
  })
})
