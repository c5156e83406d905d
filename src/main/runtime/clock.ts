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

/** Ids that sort by creation time: prefix, milliseconds in base 36, a counter, random bits. */
export function randomIds(clock: Clock = systemClock): IdSource {
  let counter = 0
  return {
    next(prefix: string): string {
      counter = (counter + 1) % 1_679_616
      const time = clock.now().toString(36).padStart(9, '0')
      return `${prefix}-${time}${counter.toString(36).padStart(4, '0')}${randomBytes(5).toString('hex')}`
    },
  }
}

/** `prefix-1`, `prefix-2`, …: for tests. */
export function sequentialIds(): IdSource {
  let counter = 0
  return { next: (prefix) => `${prefix}-${++counter}` }
}
