import { contextBridge, ipcRenderer } from 'electron'
import type { AgentTeamsApi, AppInfo } from '../shared/contract'
// Straight from ipc-channels, not via ./contract: the preload must not pull zod into its bundle.
import { ipcChannels } from '../shared/ipc-channels'

/**
 * The only surface the renderer sees: one named function per contract entry. No channel names,
 * no ipcRenderer, nothing that lets the page send arbitrary messages to main.
 */
const api: AgentTeamsApi = {
  getInfo: (): Promise<AppInfo> => ipcRenderer.invoke(ipcChannels.getInfo),
}

contextBridge.exposeInMainWorld('agentTeams', api)
