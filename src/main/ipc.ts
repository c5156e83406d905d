import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import type { CommandService } from '../shared/command-service'
import type { HostEvent } from '../shared/contract'
import {
  commandChannel,
  commandNames,
  EVENTS_CHANNEL,
  type CommandName,
} from '../shared/ipc-channels'
import { toIpcReply, type IpcReply } from '../shared/ipc-reply'
import { createEventBatcher } from './event-batcher'

export interface IpcAdapterOptions {
  /** Whether a frame at this URL is the app's own page. */
  readonly isTrustedUrl: (url: string) => boolean
}

export interface IpcAdapter {
  /**
   * Gives this window's page its own service (each window holds one team): its commands go to
   * that service, whose events stream to it, until the page is destroyed.
   */
  attach(contents: WebContents, service: CommandService): void
  /** Sends one event of main's own (a menu command, a notice) to this window's page. */
  send(contents: WebContents, event: HostEvent): void
  /** Removes every handler and stops every stream. */
  dispose(): void
}

/**
 * The one place that calls ipcMain: a handler per command on its own channel, each checking
 * the sender and finding its window's service before that service parses the parameters; and
 * the event stream to each window. Registered once, before any window exists.
 */
export function createIpcAdapter(options: IpcAdapterOptions): IpcAdapter {
  const streams = new Map<WebContents, EventStream>()
  for (const name of commandNames) {
    ipcMain.handle(commandChannel(name), async (event, params: unknown) => {
      const service = streams.get(event.sender)?.service
      const reply = await runCommand(options, service, name, event, params)
      // Events the command caused go out before its reply: the page sees `workspace-opened`
      // before `openWorkspace` resolves, as over the browser-mode socket.
      streams.get(event.sender)?.flush()
      return reply
    })
  }
  return {
    attach(contents, service) {
      if (streams.has(contents)) return
      const stream = streamEvents(service, contents)
      const forget = (): void => {
        stream.stop()
        streams.delete(contents)
        contents.removeListener('destroyed', forget)
      }
      streams.set(contents, { service, push: stream.push, flush: stream.flush, stop: forget })
      contents.once('destroyed', forget)
    },
    send(contents, event) {
      streams.get(contents)?.push(event)
    },
    dispose() {
      for (const name of commandNames) ipcMain.removeHandler(commandChannel(name))
      for (const stream of [...streams.values()]) stream.stop()
    },
  }
}

interface EventStream {
  readonly service: CommandService
  push(event: HostEvent): void
  flush(): void
  stop(): void
}

function runCommand(
  options: IpcAdapterOptions,
  service: CommandService | undefined,
  name: CommandName,
  event: IpcMainInvokeEvent,
  params: unknown,
): Promise<IpcReply> {
  // senderFrame is null when the frame navigated away or was destroyed before the message came.
  const url = event.senderFrame?.url
  if (url === undefined || !options.isTrustedUrl(url)) {
    console.warn(`[ipc] refused ${name} from untrusted sender ${url ?? '(no frame)'}`)
    // Thrown, not answered: an untrusted page learns nothing beyond the refusal.
    throw new Error(`Refused ${name}: the sender is not the app's own page`)
  }
  // A trusted page without a service: its window is closing (or was never given one).
  if (service === undefined) throw new Error(`Refused ${name}: this window has no team attached`)
  return toIpcReply(() => service.execute(name, params))
}

/** Sends the service's events to `contents` in batches of at most one per animation frame. */
function streamEvents(
  service: CommandService,
  contents: WebContents,
): Omit<EventStream, 'service'> {
  const batcher = createEventBatcher({
    send: (events) => {
      if (!contents.isDestroyed()) contents.send(EVENTS_CHANNEL, events)
    },
  })
  const subscription = service.onEvent((event) => batcher.push(event))
  return {
    push: (event) => batcher.push(event),
    flush: () => batcher.flush(),
    stop: () => {
      subscription.dispose()
      batcher.dispose()
    },
  }
}
