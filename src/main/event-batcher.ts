import type { HostEvent } from '../shared/contract'
import { appendMerged } from '../shared/event-batching'

/** One animation frame at 60 Hz: the renderer cannot paint batches any faster than this. */
export const FRAME_INTERVAL_MS = 16

/** The timer functions the batcher uses; injected so tests drive time by hand. */
export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown
  clearTimeout(handle: unknown): void
}

const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface EventBatcherOptions {
  /** Receives each non-empty batch, in order. */
  readonly send: (events: HostEvent[]) => void
  readonly intervalMs?: number
  readonly timers?: Timers
}

export interface EventBatcher {
  push(event: HostEvent): void
  /** Sends what is buffered now (nothing when the buffer is empty). */
  flush(): void
  /** Drops what is buffered and stops the timer; later pushes are ignored. */
  dispose(): void
}

/**
 * Collects events and hands them on at most once per interval while there are any. A streaming
 * model emits a `text-delta` per token, so consecutive deltas of one agent inside a batch are
 * merged into one; anything in between (another agent's delta, a tool call) keeps the order.
 */
export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  const intervalMs = options.intervalMs ?? FRAME_INTERVAL_MS
  const timers = options.timers ?? systemTimers
  let buffer: HostEvent[] = []
  let timer: unknown = undefined
  let disposed = false

  const flush = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
    if (buffer.length === 0) return
    const batch = buffer
    buffer = []
    options.send(batch)
  }

  return {
    push(event) {
      if (disposed) return
      appendMerged(buffer, event)
      // The timer starts with the first event of a batch, so batches are at least an interval
      // apart and an event waits at most one interval.
      timer ??= timers.setTimeout(flush, intervalMs)
    },
    flush,
    dispose() {
      disposed = true
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
      buffer = []
    },
  }
}

export { appendMerged }
