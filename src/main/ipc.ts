import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import type { z } from 'zod'
import { appInfoSchema, ipcChannels, type AppInfo, type IpcChannel } from '../shared/contract'

/** What the IPC handlers answer with; main wires these to the app and, later, the runtime host. */
export interface IpcServices {
  /** Whether a frame at this URL is the app's own page. */
  isTrustedUrl(url: string): boolean
  getInfo(): AppInfo
}

export type Dispose = () => void

/** Registers every handler of the contract; the returned function removes them again. */
export function registerIpcHandlers(services: IpcServices): Dispose {
  const disposers = [handle(ipcChannels.getInfo, appInfoSchema, services, () => services.getInfo())]
  return () => {
    for (const dispose of disposers) dispose()
  }
}

/**
 * The one place that calls ipcMain: checks the sender, runs the handler, and parses the reply
 * with the contract's schema so nothing unchecked leaves main.
 */
function handle<Reply>(
  channel: IpcChannel,
  replySchema: z.ZodType<Reply>,
  services: IpcServices,
  handler: () => Reply | Promise<Reply>,
): Dispose {
  ipcMain.handle(channel, async (event) => {
    assertTrustedSender(event, channel, services)
    return replySchema.parse(await handler())
  })
  return () => ipcMain.removeHandler(channel)
}

function assertTrustedSender(
  event: IpcMainInvokeEvent,
  channel: IpcChannel,
  services: IpcServices,
): void {
  // senderFrame is null when the frame navigated away or was destroyed before the message arrived.
  const url = event.senderFrame?.url
  if (url !== undefined && services.isTrustedUrl(url)) return
  console.warn(`[ipc] refused ${channel} from untrusted sender ${url ?? '(no frame)'}`)
  throw new Error(`Refused ${channel}: the sender is not the app's own page`)
}
