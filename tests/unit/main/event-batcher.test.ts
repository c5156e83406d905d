import { describe, expect, it, vi } from 'vitest'
import type { HostEvent } from '../../../src/shared/contract'
import {
  appendMerged,
  createEventBatcher,
  FRAME_INTERVAL_MS,
  type Timers,
} from '../../../src/main/event-batcher'

/** Timers driven by hand: `advance` fires whatever is due, in order. */
function manualTimers(): Timers & { advance(ms: number): void; pending(): number } {
  let now = 0
  let nextId = 1
  const scheduled = new Map<number, { at: number; callback: () => void }>()
  return {
    setTimeout(callback, delayMs) {
      const id = nextId++
      scheduled.set(id, { at: now + delayMs, callback })
      return id
    },
    clearTimeout(handle) {
      scheduled.delete(handle as number)
    },
    // "After this turn of the event loop" is, on a hand-driven clock, "due now".
    setImmediate(callback) {
      const id = nextId++
      scheduled.set(id, { at: now, callback })
      return id
    },
    clearImmediate(handle) {
      scheduled.delete(handle as number)
    },
    advance(ms) {
      const end = now + ms
      for (;;) {
        const due = [...scheduled.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort(([, a], [, b]) => a.at - b.at)[0]
        if (due === undefined) break
        scheduled.delete(due[0])
        now = due[1].at
        due[1].callback()
      }
      now = end
    },
    pending: () => scheduled.size,
  }
}

const delta = (agent: string, text: string): HostEvent => ({ type: 'text-delta', agent, text })
const toolStarted = (agent: string): HostEvent => ({
  type: 'tool-call-started',
  agent,
  id: 'toolu_1',
  name: 'bash',
})

function setup() {
  const timers = manualTimers()
  const batches: HostEvent[][] = []
  const batcher = createEventBatcher({ send: (events) => batches.push(events), timers })
  return { timers, batches, batcher }
}

describe('event batcher', () => {
  it('sends a lone event right after the current turn, not a frame later', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(toolStarted('alice'))
    batcher.push(delta('alice', 'Hel'))
    // Same turn: both wait, so what one stream chunk produces travels together.
    expect(batches).toEqual([])
    timers.advance(0)
    expect(batches).toEqual([[toolStarted('alice'), delta('alice', 'Hel')]])
  })

  it('after a batch, holds what arrives until the frame is over, then sends it together', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(delta('alice', 'a'))
    timers.advance(0)
    batcher.push(delta('alice', 'b'))
    batcher.push(delta('alice', 'c'))
    timers.advance(FRAME_INTERVAL_MS - 1)
    expect(batches).toEqual([[delta('alice', 'a')]])
    timers.advance(1)
    expect(batches).toEqual([[delta('alice', 'a')], [delta('alice', 'bc')]])
  })

  it('sends at most once per frame while events keep coming', () => {
    const { timers, batches, batcher } = setup()
    for (let tick = 0; tick < 100; tick++) {
      batcher.push(toolStarted(`agent${tick}`))
      timers.advance(1)
    }
    timers.advance(FRAME_INTERVAL_MS)
    // 100 ms of events at one per millisecond: the first at once, then one batch per 16 ms
    // frame, none lost.
    expect(batches.length).toBe(1 + Math.ceil(99 / FRAME_INTERVAL_MS))
    expect(batches.flat()).toHaveLength(100)
    expect(batches.every((batch) => batch.length <= FRAME_INTERVAL_MS)).toBe(true)
  })

  it('goes back to sending at once after a quiet frame', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(delta('lead', 'a'))
    timers.advance(0)
    timers.advance(FRAME_INTERVAL_MS * 2)
    batcher.push(delta('lead', 'b'))
    timers.advance(0)
    expect(batches).toEqual([[delta('lead', 'a')], [delta('lead', 'b')]])
  })

  it('sends no empty batches and keeps no timer while idle', () => {
    const { timers, batches, batcher } = setup()
    timers.advance(1000)
    expect(batches).toEqual([])
    expect(timers.pending()).toBe(0)
    batcher.push(delta('lead', 'x'))
    timers.advance(FRAME_INTERVAL_MS)
    expect(timers.pending()).toBe(0)
    timers.advance(1000)
    expect(timers.pending()).toBe(0)
    expect(batches).toHaveLength(1)
  })

  it('merges consecutive text deltas of one agent', () => {
    const { timers, batches, batcher } = setup()
    for (const text of ['Hel', 'lo', ', ', 'bob']) batcher.push(delta('alice', text))
    timers.advance(FRAME_INTERVAL_MS)
    expect(batches).toEqual([[delta('alice', 'Hello, bob')]])
  })

  it('keeps the order: deltas of different agents, or around other events, stay apart', () => {
    const { timers, batches, batcher } = setup()
    const events = [
      delta('alice', 'a1'),
      delta('alice', 'a2'),
      delta('bob', 'b1'),
      delta('alice', 'a3'),
      toolStarted('alice'),
      delta('alice', 'a4'),
      delta('alice', 'a5'),
    ]
    for (const event of events) batcher.push(event)
    timers.advance(FRAME_INTERVAL_MS)
    expect(batches).toEqual([
      [
        delta('alice', 'a1a2'),
        delta('bob', 'b1'),
        delta('alice', 'a3'),
        toolStarted('alice'),
        delta('alice', 'a4a5'),
      ],
    ])
  })

  it('never merges across batches', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(delta('alice', 'one'))
    timers.advance(FRAME_INTERVAL_MS)
    batcher.push(delta('alice', 'two'))
    timers.advance(FRAME_INTERVAL_MS)
    expect(batches).toEqual([[delta('alice', 'one')], [delta('alice', 'two')]])
  })

  it('does not modify the events it was given', () => {
    const first = delta('alice', 'a')
    const batch: HostEvent[] = []
    appendMerged(batch, first)
    appendMerged(batch, delta('alice', 'b'))
    expect(first).toEqual(delta('alice', 'a'))
    expect(batch).toEqual([delta('alice', 'ab')])
  })

  it('flush sends at once, in the same turn, and what follows waits for the frame', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(delta('lead', 'x'))
    batcher.flush()
    expect(batches).toEqual([[delta('lead', 'x')]])
    batcher.flush()
    expect(batches).toHaveLength(1)
    batcher.push(delta('lead', 'y'))
    timers.advance(FRAME_INTERVAL_MS - 1)
    expect(batches).toHaveLength(1)
    timers.advance(1)
    expect(batches).toEqual([[delta('lead', 'x')], [delta('lead', 'y')]])
    timers.advance(FRAME_INTERVAL_MS)
    expect(timers.pending()).toBe(0)
  })

  it('after dispose drops the buffer, stops its timer and ignores new events', () => {
    const { timers, batches, batcher } = setup()
    batcher.push(delta('lead', 'x'))
    batcher.dispose()
    expect(timers.pending()).toBe(0)
    batcher.push(delta('lead', 'y'))
    timers.advance(1000)
    expect(timers.pending()).toBe(0)
    expect(batches).toEqual([])
  })

  it('runs on the real timers by default', async () => {
    const batches: HostEvent[][] = []
    const batcher = createEventBatcher({ send: (events) => batches.push(events) })
    batcher.push(delta('lead', 'a'))
    batcher.push(delta('lead', 'b'))
    expect(batches).toEqual([])
    await vi.waitFor(() => expect(batches).not.toEqual([]), { interval: FRAME_INTERVAL_MS })
    expect(batches).toEqual([[delta('lead', 'ab')]])
    batcher.dispose()
  })
})
