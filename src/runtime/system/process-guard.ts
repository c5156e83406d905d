/**
 * The last line of defence: an exception or a rejection that nothing caught. Node's default is to
 * end the process, which for `serve` or the desktop app means the whole team stops for one bug
 * in one agent or one handler. With the guard installed such a fault is reported (logged, and
 * published by the caller as a team alert the UI shows) and the process goes on; the parts that
 * can be recovered (an agent's loop) already end in `error` on their own.
 */

import type { Disposable } from '../../shared/disposable'
import type { TeamEvent } from '../../shared/events'

export interface ProcessFault {
  readonly origin: 'uncaughtException' | 'unhandledRejection'
  readonly message: string
  /** The stack when there is one, for the operator's log. */
  readonly detail: string
}

/** Disposed: removes the handlers, and Node's own behaviour is back. */
export type ProcessGuard = Disposable

/**
 * Installs handlers for `uncaughtException` and `unhandledRejection` on `target` (the process)
 * that call `report` instead of exiting. A report that throws is swallowed: the guard itself
 * must never be what ends the process. Used by `agent-teams serve`, `chat`, `demo` and the
 * Electron main process (src/main/index.ts).
 */
export function installProcessGuard(
  report: (fault: ProcessFault) => void,
  target: Pick<NodeJS.Process, 'on' | 'off'> = process,
): ProcessGuard {
  const handle =
    (origin: ProcessFault['origin']) =>
    (error: unknown): void => {
      try {
        report(describeFault(origin, error))
      } catch {
        // Nowhere left to report to.
      }
    }
  const onException = handle('uncaughtException')
  const onRejection = handle('unhandledRejection')
  target.on('uncaughtException', onException)
  target.on('unhandledRejection', onRejection)
  return {
    dispose: () => {
      target.off('uncaughtException', onException)
      target.off('unhandledRejection', onRejection)
    },
  }
}

export function describeFault(origin: ProcessFault['origin'], error: unknown): ProcessFault {
  if (error instanceof Error)
    return { origin, message: error.message, detail: error.stack ?? error.message }
  const text = safeString(error)
  return { origin, message: text, detail: text }
}

function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/** The team alert the UI shows for a caught fault (serve and the desktop app publish it). */
export function faultAlert(fault: ProcessFault): TeamEvent {
  return {
    type: 'team-alert',
    code: 'internal',
    message: `An internal error was caught and the team goes on: ${fault.message}`,
  }
}
