import type { HostEvent } from './contract'
import type { Disposable } from './disposable'

/**
 * What a transport needs of the app: commands by name (it parses nothing itself; the service
 * parses every request and reply) and the events to forward. The Electron IPC adapter and the
 * browser-mode server both serve this one shape.
 */
export interface CommandRunner {
  execute(name: string, params: unknown): Promise<unknown>
}

export interface CommandService extends CommandRunner {
  onEvent(listener: (event: HostEvent) => void): Disposable
}
