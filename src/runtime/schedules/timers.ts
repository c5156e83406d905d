/**
 * Timers the scheduler sets, injected like the clock: the process's own in the app and `serve`,
 * a test's fake (`tests/helpers/fake-clock.ts`) that fires them as its clock is moved on. The
 * host's other timers (the watcher's, the agents') are real in every test, so vitest's global
 * fake timers would stop the team; this port fakes only the schedules'.
 */
export interface Timers {
  /** Calls `callback` once after `milliseconds`; the handle cancels it. */
  setTimeout(callback: () => void, milliseconds: number): TimerHandle
}

export interface TimerHandle {
  cancel(): void
}

/**
 * The process's timers, unreferenced: a schedule never keeps a CLI process alive (the app and
 * `serve` stay up by themselves).
 */
export const systemTimers: Timers = {
  setTimeout(callback, milliseconds) {
    const timer = setTimeout(callback, milliseconds)
    timer.unref()
    return { cancel: () => clearTimeout(timer) }
  },
}
