import type { HostEvent } from '../shared/contract'
import { EVENT_BATCH_MS, MAX_FRAME_BYTES, type EventsFrame } from '../shared/wire'
import {
  createEventBatcher,
  type EventBatcher as SharedBatcher,
  type Timers,
} from '../shared/event-batching'

/**
 * Collects the app's events and hands them out as `{kind:'events'}` frames: a lone event at
 * once, a stream at most one batch every `intervalMs` (about one animation frame; see
 * `createEventBatcher`). One buffer serves every client: a batch is serialized once and the
 * same text goes to each socket.
 */
export class EventBatcher {
  private readonly batcher: SharedBatcher

  constructor(
    send: (frames: readonly string[]) => void,
    intervalMs = EVENT_BATCH_MS,
    timers?: Timers,
  ) {
    this.batcher = createEventBatcher({
      send: (events) => send(encodeEventFrames(events)),
      intervalMs,
      ...(timers ? { timers } : {}),
    })
  }

  push(event: HostEvent): void {
    this.batcher.push(event)
  }

  /** Sends what is buffered now (also called before a response, so events keep their order). */
  flush(): void {
    this.batcher.flush()
  }

  dispose(): void {
    this.batcher.dispose()
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
