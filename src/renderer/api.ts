import type { AgentTeamsApi } from '../shared/contract'
import type { ConnectionStatus } from './store/ui'
import { removeTokenFromAddress } from './transport/address-token'
import { connectWebSocketApi, type ConnectionState } from './transport/websocket-api'

/** The page's API and, where the transport can drop (browser mode), its connection state. */
export interface RendererApi {
  readonly api: AgentTeamsApi
  readonly onConnectionChange?: (listener: (status: ConnectionStatus) => void) => () => void
}

/**
 * The preload's `window.agentTeams` inside Electron; otherwise (browser mode) a WebSocket client
 * to the server that served the page. Components never learn which one they have.
 */
export function resolveApi(): RendererApi {
  const preload = window.agentTeams
  if (preload !== undefined) return { api: preload }
  const socket = connectWebSocketApi()
  // After the socket took its address: from now on the cookie carries the token.
  removeTokenFromAddress(window.location, window.history)
  // Followed from the start (the socket may open before the App subscribes), so that a lost
  // connection is told apart from the first connect, and a late subscriber gets the state now.
  let wasOpen = false
  let status: ConnectionStatus = 'connected'
  const listeners = new Set<(status: ConnectionStatus) => void>()
  socket.onConnectionChange((state: ConnectionState) => {
    if (state === 'open') wasOpen = true
    status = connectionStatus(state, wasOpen)
    for (const listener of listeners) listener(status)
  })
  return {
    api: socket,
    onConnectionChange: (listener) => {
      listeners.add(listener)
      listener(status)
      return () => listeners.delete(listener)
    },
  }
}

function connectionStatus(state: ConnectionState, wasOpen: boolean): ConnectionStatus {
  if (state === 'refused') return 'expired'
  if (state === 'open' || !wasOpen) return 'connected'
  return 'reconnecting'
}
