/**
 * SIGINT and SIGTERM for a program that runs a team: the first one stops the team so that it
 * settles (transcripts complete, locks released), a second one ends the process at once.
 *
 * Node ends a process on these signals only while nothing listens to them, and the sandbox
 * runtime (`@anthropic-ai/sandbox-runtime`) listens to both from the first sandboxed command on,
 * to take its proxies and mount points down. Its listener does not exit, so a program relying
 * on Node's default would ignore SIGTERM after one bash command. Every program that can run
 * sandboxed commands (`chat`, `demo`, `serve`, the Electron main process) says here what a stop
 * is; the runtime's clean-up still runs beside it, and on exit.
 */

import type { Disposable } from '../../shared/disposable'

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const
export type StopSignal = (typeof STOP_SIGNALS)[number]

/** The shell's exit status for a process ended by the signal: 128 + its number. */
export const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = {
  SIGINT: 130,
  SIGTERM: 143,
}

/** Disposed: stops listening (the program is done; its own end is near). */
export type StopSignals = Disposable

/**
 * Calls `stop` on the first SIGINT or SIGTERM; a second one exits at once with its status
 * (`process.exit`, so that the 'exit' clean-ups of the sandbox runtime still run).
 */
export function onStopSignals(
  stop: (signal: StopSignal) => void,
  target: Pick<NodeJS.Process, 'on' | 'off' | 'exit'> = process,
): StopSignals {
  let stopping = false
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = (): void => {
      if (stopping) {
        target.exit(SIGNAL_EXIT_CODES[signal])
        return
      }
      stopping = true
      stop(signal)
    }
    target.on(signal, listener)
    return { signal, listener }
  })
  return {
    dispose: () => {
      for (const { signal, listener } of listeners) target.off(signal, listener)
    },
  }
}
