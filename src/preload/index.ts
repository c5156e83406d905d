import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { AgentTeamsApi } from '../shared/contract'
// Straight from the zod-free modules, never via ../shared/contract: the sandboxed preload is one
// bundled file, and a schema library has no place in it.
import { commandChannel, commandNames, EVENTS_CHANNEL } from '../shared/ipc-channels'
import { unwrapIpcReply, type IpcReply } from '../shared/ipc-reply'

/**
 * The only surface the page sees: one named function per command, each bound to its own
 * channel, and a batched event subscription. No channel names, no ipcRenderer, no IPC event
 * objects: nothing that lets the page send arbitrary messages to main.
 */
function createApi(): AgentTeamsApi {
  const commands = Object.fromEntries(
    commandNames.map((name) => {
      const channel = commandChannel(name)
      const command = async (params: unknown): Promise<unknown> =>
        unwrapIpcReply((await ipcRenderer.invoke(channel, params)) as IpcReply)
      return [name, command]
    }),
  ) as Omit<AgentTeamsApi, 'onEvents'>
  return {
    ...commands,
    onEvents(listener) {
      // Handed on as they came: the page's store parses each event.
      const forward = (_event: IpcRendererEvent, events: unknown[]): void => listener(events)
      ipcRenderer.on(EVENTS_CHANNEL, forward)
      return {
        dispose: () => {
          ipcRenderer.removeListener(EVENTS_CHANNEL, forward)
        },
      }
    },
  }
}

contextBridge.exposeInMainWorld('agentTeams', createApi())
