import type { HostEvent } from './contract'

/**
 * Appends `event` to a batch on its way to a UI, folding it into the last one when both are text
 * deltas of the same agent: a streaming reply becomes one event per batch instead of one per
 * token. Only neighbours merge, so the order of everything else is kept; the events themselves
 * are never mutated (other subscribers see them too).
 */
export function appendMerged(batch: HostEvent[], event: HostEvent): void {
  const last = batch[batch.length - 1]
  if (event.type === 'text-delta' && last?.type === 'text-delta' && last.agent === event.agent) {
    batch[batch.length - 1] = { ...last, text: last.text + event.text }
    return
  }
  batch.push(event)
}

/** One animation frame at 60 Hz: a UI cannot paint batches any faster than this. */
export const FRAME_INTERVAL_MS = 16

/** The timer functions a batcher uses; injected so tests drive time by hand. */
export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown
  clearTimeout(handle: unknown): void
  /** Runs `callback` once the current turn of the event loop is over. */
  setImmediate(callback: () => void): unknown
  clearImmediate(handle: unknown): void
}

type Handle = ReturnType<typeof setTimeout>

/** Node has setImmediate; a browser does not, and a zero timeout is its nearest equivalent. */
const host = globalThis as {
  setImmediate?: (callback: () => void) => unknown
  clearImmediate?: (handle: unknown) => void
}

const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as Handle),
  setImmediate: (callback) =>
    host.setImmediate ? host.setImmediate(callback) : setTimeout(callback, 0),
  clearImmediate: (handle) => {
    if (host.clearImmediate) host.clearImmediate(handle)
    else clearTimeout(handle as Handle)
  },
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
  /** Drops what is buffered and stops the timers; later pushes are ignored. */
  dispose(): void
}

/**
 * Hands events on in batches, at most one batch per interval, without making a lone event wait.
 * When the batcher is idle, the first event goes out as soon as the current turn of the event
 * loop is over (so the events one stream chunk produces still travel together); then the
 * batcher rests for an interval, collecting whatever arrives, and sends that at the end of the
 * interval. A team streaming tokens thus costs the UI one batch a frame, and a message that
 * arrives on a quiet team is on screen without a frame's delay. Consecutive deltas of one agent
 * inside a batch are merged (`appendMerged`).
 */
export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  const intervalMs = options.intervalMs ?? FRAME_INTERVAL_MS
  const timers = options.timers ?? systemTimers
  let buffer: HostEvent[] = []
  /** Set while resting after a batch: events wait for its end. */
  let resting: unknown = undefined
  /** Set while the first event of an idle batcher waits for the end of the current turn. */
  let soon: unknown = undefined
  let disposed = false

  const send = (): boolean => {
    if (buffer.length === 0) return false
    const batch = buffer
    buffer = []
    options.send(batch)
    return true
  }
  const rest = (): void => {
    if (resting !== undefined) timers.clearTimeout(resting)
    resting = timers.setTimeout(endRest, intervalMs)
  }
  const endRest = (): void => {
    resting = undefined
    // Rest again only after sending: an interval with nothing to send leaves the batcher idle.
    if (send()) rest()
  }
  const flush = (): void => {
    if (soon !== undefined) timers.clearImmediate(soon)
    soon = undefined
    if (send()) rest()
  }

  return {
    push(event) {
      if (disposed) return
      appendMerged(buffer, event)
      if (resting === undefined && soon === undefined) soon = timers.setImmediate(flush)
    },
    flush,
    dispose() {
      disposed = true
      if (resting !== undefined) timers.clearTimeout(resting)
      if (soon !== undefined) timers.clearImmediate(soon)
      resting = soon = undefined
      buffer = []
    },
  }
}
