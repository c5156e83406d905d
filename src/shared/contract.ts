import { z } from 'zod'

/**
 * The contract between the Electron main process and the renderer: channel names, the zod
 * schemas of what crosses them, and the API the preload exposes on `window.agentTeams`.
 * Main parses every reply on the way out; the renderer parses it again on the way in.
 */
export { ipcChannels, type IpcChannel } from './ipc-channels'

export const appInfoSchema = z.object({
  /** The app's version, as package.json declares it. */
  version: z.string().min(1),
  /** The absolute path of the folder whose `.team/` holds the team. */
  workspace: z.string().min(1),
})

export type AppInfo = z.infer<typeof appInfoSchema>

/** What the preload exposes on `window.agentTeams`: named functions, never a raw channel. */
export interface AgentTeamsApi {
  getInfo(): Promise<AppInfo>
}
