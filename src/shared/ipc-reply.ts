import type { CommandError } from './contract'
import { serializeError, type SerializedError } from './errors'

/**
 * What a command's IPC handler answers. `ipcMain.handle` turns a thrown error into a bare
 * "Error invoking remote method" rejection that loses `name` and `code`, so main catches and
 * answers with data instead; the preload turns a failure back into a rejection. Free of zod,
 * like ./ipc-channels, because the sandboxed preload bundles it.
 */
export type IpcReply<T = unknown> =
  | { readonly ok: true; readonly result: T }
  | { readonly ok: false; readonly error: SerializedError }

/** Runs `command` and answers with its result or its error, never rejecting. */
export async function toIpcReply<T>(command: () => Promise<T>): Promise<IpcReply<T>> {
  try {
    return { ok: true, result: await command() }
  } catch (error) {
    return { ok: false, error: serializeError(error) }
  }
}

/**
 * The rejection value the preload hands to the page: a plain `{ name, code, message }` object
 * rather than an Error, because contextBridge rebuilds a native Error in the page's world from
 * its message alone (Electron's electron_api_context_bridge.cc), dropping `name` and `code`,
 * while it copies a plain object's fields as they are.
 */
export type CommandRejection = Readonly<CommandError>

/** The result of a successful reply; throws the failure as a `CommandRejection`. */
export function unwrapIpcReply<T>(reply: IpcReply<T>): T {
  if (reply.ok) return reply.result
  const { name, code, message } = reply.error
  const rejection: CommandRejection = { name, code, message }
  throw rejection
}

/**
 * Reads `{ name, code, message }` off whatever a command rejected with, whichever transport
 * carried it: a `CommandRejection` from the preload, an Error with a `code`, or anything else.
 */
export function toCommandRejection(error: unknown): CommandRejection {
  if (typeof error === 'object' && error !== null) {
    const { name, code, message } = error as Partial<Record<keyof CommandRejection, unknown>>
    if (typeof message === 'string') {
      return {
        name: typeof name === 'string' ? name : 'Error',
        code: typeof code === 'string' ? code : 'internal',
        message,
      }
    }
  }
  return { name: 'Error', code: 'internal', message: String(error) }
}
