import type { Clock } from '../../src/runtime/system/clock'
import type { TimerHandle, Timers } from '../../src/runtime/schedules/timers'

/**
 * A clock that moves only when told, with the timers set against it: `advance` moves the time
 * on and fires each timer that falls due, in order, at its own time. For the scheduler, whose
 * timers are a port of their own; the rest of the runtime keeps the process's real timers.
 */
export class FakeClock implements Clock, Timers {
  private pending: { at: number; callback: () => void; cancelled: boolean }[] = []

  constructor(private time: number) {}

  now(): number {
    return this.time
  }

  setTimeout(callback: () => void, milliseconds: number): TimerHandle {
    const timer = { at: this.time + Math.max(0, milliseconds), callback, cancelled: false }
    this.pending.push(timer)
    return { cancel: () => void (timer.cancelled = true) }
  }

  /** How many timers wait to fire. */
  get waiting(): number {
    return this.pending.filter((timer) => !timer.cancelled).length
  }

  /** Moves the time on by `milliseconds`, firing every timer due on the way. */
  advance(milliseconds: number): void {
    const end = this.time + milliseconds
    for (;;) {
      this.pending = this.pending.filter((timer) => !timer.cancelled)
      const next = this.pending.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0]
      if (next === undefined) break
      this.pending = this.pending.filter((timer) => timer !== next)
      this.time = Math.max(this.time, next.at)
      next.callback()
    }
    this.time = end
  }
}
