/// <reference types="vite/client" />
import type { AgentTeamsApi } from '../shared/contract'

declare global {
  interface Window {
    /** Set by the preload inside Electron; absent when the page runs in a plain browser. */
    readonly agentTeams?: AgentTeamsApi
  }
}
