// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { resolveApi } from '../../../src/renderer/api'
import { removeTokenFromAddress } from '../../../src/renderer/transport/address-token'

/** A WebSocket that records the address it was asked to open, and never opens. */
class RecordingSocket {
  static urls: string[] = []
  readonly readyState = 0
  constructor(url: string) {
    RecordingSocket.urls.push(url)
  }
  send(): void {}
  close(): void {}
  addEventListener(): void {}
}

describe("the launch token leaves the browser's address bar", () => {
  const originalSocket = globalThis.WebSocket
  afterEach(() => {
    globalThis.WebSocket = originalSocket
    window.history.replaceState(null, '', '/')
  })

  it('keeps the rest of the address, and the history entry count', () => {
    window.history.replaceState({ kept: 1 }, '', '/?token=secret-token&view=inbox#lead')
    const entries = window.history.length
    expect(removeTokenFromAddress(window.location, window.history)).toBe(true)
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/?view=inbox#lead',
    )
    expect(window.location.href).not.toContain('secret-token')
    expect(window.history.length).toBe(entries)
    expect(window.history.state).toEqual({ kept: 1 })
    // Nothing to remove: the address is left alone.
    expect(removeTokenFromAddress(window.location, window.history)).toBe(false)
  })

  it('browser mode boots with the token, then removes it; a reload relies on the cookie', () => {
    globalThis.WebSocket = RecordingSocket as unknown as typeof WebSocket
    RecordingSocket.urls = []
    window.history.replaceState(null, '', '/?token=secret-token')
    const { api } = resolveApi()
    expect(RecordingSocket.urls).toEqual([`ws://${window.location.host}/ws?token=secret-token`])
    expect(window.location.search).toBe('')
    ;(api as unknown as { close(): void }).close()

    // The reloaded page has no token in its address: its socket goes without one (the cookie).
    RecordingSocket.urls = []
    const reloaded = resolveApi()
    expect(RecordingSocket.urls).toEqual([`ws://${window.location.host}/ws`])
    ;(reloaded.api as unknown as { close(): void }).close()
  })
})
