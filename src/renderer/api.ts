import type { AgentTeamsApi } from '../shared/contract'
import type { ConnectionStatus } from './store/ui'
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
  return {
    api: socket,
    onConnectionChange: (listener) => {
      // The first connect is the splash screen's business; only a lost connection is news.
      let wasOpen = false
      return socket.onConnectionChange((state: ConnectionState) => {
        if (state === 'open') wasOpen = true
        listener(connectionStatus(state, wasOpen))
      })
    },
  }
}

function connectionStatus(state: ConnectionState, wasOpen: boolean): ConnectionStatus {
  if (state === 'open' || !wasOpen) return 'connected'
  return 'reconnecting'
}
