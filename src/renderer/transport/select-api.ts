import type { AgentTeamsApi } from '../../shared/contract'
import { connectWebSocketApi } from './websocket-api'

/**
 * The API for this page: the preload's `window.agentTeams` inside Electron, otherwise (browser
 * mode, `agent-teams serve`) a WebSocket client to the server that served the page. The rest of
 * the renderer sees only AgentTeamsApi and never knows which one it has; browser mode's client
 * also has `onConnectionChange` and `close` (check with `'onConnectionChange' in api`).
 */
export function selectApi(): AgentTeamsApi {
  return window.agentTeams ?? connectWebSocketApi()
}
