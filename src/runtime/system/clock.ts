import { randomBytes } from 'node:crypto'

/** Time and identity are injected, so that lines, transcripts and tests are deterministic. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
}
export interface IdSource {
  next(prefix: string): string
}

export const systemClock: Clock = { now: () => Date.now() }

/** The counter wraps after 36^4 ids, so it always fits its four base-36 digits. */
const COUNTER_SPAN = 36 ** 4

/**
 * Ids that sort by creation time: prefix, milliseconds in base 36, a counter, then random bits
 * drawn once per source. Within a source the time and the counter make an id unique (the counter
 * would have to wrap within one millisecond); across processes and restarts the random part
 * does. The random part is drawn once, not per id, because it only has to tell sources apart
 * and a send should not wait on the system's random source.
 */
export function randomIds(clock: Clock = systemClock): IdSource {
  const source = randomBytes(5).toString('hex')
  let counter = 0
  let lastTime = Number.NaN
  let timeText = ''
  return {
    next(prefix: string): string {
      counter = (counter + 1) % COUNTER_SPAN
      const time = clock.now()
      if (time !== lastTime) {
        lastTime = time
        timeText = time.toString(36).padStart(9, '0')
      }
      return `${prefix}-${timeText}${counter.toString(36).padStart(4, '0')}${source}`
    },
  }
}

/** `prefix-1`, `prefix-2`, …: for tests. */
export function sequentialIds(): IdSource {
  let counter = 0
  return { next: (prefix) => `${prefix}-${++counter}` }
}
