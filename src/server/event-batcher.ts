import type { HostEvent } from '../shared/contract'
import { EVENT_BATCH_MS, MAX_FRAME_BYTES, type EventsFrame } from '../shared/wire'
import { appendMerged } from '../shared/event-batching'

/**
 * Collects the app's events and hands them out as `{kind:'events'}` frames, at most one batch
 * every `intervalMs` (about one animation frame). One buffer serves every client: a batch is
 * serialized once and the same text goes to each socket.
 */
export class EventBatcher {
  private buffer: HostEvent[] = []
  private timer: NodeJS.Timeout | null = null
  private disposed = false

  constructor(
    private readonly send: (frames: readonly string[]) => void,
    private readonly intervalMs = EVENT_BATCH_MS,
  ) {}

  push(event: HostEvent): void {
    if (this.disposed) return
    appendMerged(this.buffer, event)
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs)
  }

  /** Sends what is buffered now (also called before a response, so events keep their order). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    if (this.buffer.length === 0) return
    const events = this.buffer
    this.buffer = []
    this.send(encodeEventFrames(events))
  }

  dispose(): void {
    this.disposed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.buffer = []
  }
}

/** One frame, or several when one would be over MAX_FRAME_BYTES (halved until each fits). */
export function encodeEventFrames(
  events: readonly HostEvent[],
  maxBytes = MAX_FRAME_BYTES,
): string[] {
  const frame: EventsFrame = { kind: 'events', events: [...events] }
  const text = JSON.stringify(frame)
  if (events.length <= 1 || Buffer.byteLength(text, 'utf8') <= maxBytes) return [text]
  const middle = Math.ceil(events.length / 2)
  return [
    ...encodeEventFrames(events.slice(0, middle), maxBytes),
    ...encodeEventFrames(events.slice(middle), maxBytes),
  ]
}
