import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { text } from '../../../src/offline-model/script'
import { clientFor, offlineServers, request } from '../../helpers/offline-harness'

const startServer = offlineServers()

/** The error code of a fresh connection attempt, or 'connected'. */
function connectionOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('offline model server: closing', () => {
  it('listens on 127.0.0.1 on an ephemeral port', async () => {
    const server = await startServer({ script: () => text('hi') })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.url).not.toBe('http://127.0.0.1:0')
  })

  it('closes promptly with a keep-alive connection and a half-sent request still open', async () => {
    const server = await OfflineModelServer.start({ script: () => text('hi') })
    // The SDK's fetch keeps its connection alive after this call.
    await clientFor(server).messages.create(request())
    // A request whose body never finishes: http.Server.close() alone would wait for it.
    const port = Number(new URL(server.url).port)
    const socket = connect(port, '127.0.0.1')
    const socketErrors: string[] = []
    socket.on('error', (error: NodeJS.ErrnoException) =>
      socketErrors.push(error.code ?? error.message),
    )
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write('POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{')
    const socketClosed = new Promise((resolve) => socket.once('close', resolve))
    await server.close()
    await socketClosed
    expect(socket.destroyed).toBe(true)
    expect(socketErrors.every((code) => code === 'ECONNRESET')).toBe(true)
    expect(await connectionOutcome(port)).toBe('ECONNREFUSED')
  })

  it('resolves close() more than once, with the same promise', async () => {
    const server = await OfflineModelServer.start({ script: () => text('hi') })
    const first = server.close()
    expect(server.close()).toBe(first)
    await first
  })
})
