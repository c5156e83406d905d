import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Burst } from '../../../../src/runtime/git/burst'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('Burst', () => {
  it('a burst of pokes is one call, once they stopped', () => {
    let calls = 0
    const burst = new Burst(() => calls++, 150, 800)
    for (let write = 0; write < 40; write++) burst.poke()
    vi.advanceTimersByTime(149)
    expect(calls).toBe(0)
    vi.advanceTimersByTime(1)
    expect(calls).toBe(1)
    vi.advanceTimersByTime(5000)
    expect(calls).toBe(1)
  })

  it('pokes that go on are told at the longest wait, then again after the next', () => {
    let calls = 0
    const burst = new Burst(() => calls++, 150, 800)
    for (let elapsed = 0; elapsed < 1000; elapsed += 100) {
      burst.poke()
      vi.advanceTimersByTime(100)
    }
    // The first call came at 800 ms; the pokes after it started a second burst.
    expect(calls).toBe(1)
    vi.advanceTimersByTime(150)
    expect(calls).toBe(2)
  })

  it('a stopped burst never calls', () => {
    let calls = 0
    const burst = new Burst(() => calls++, 150, 800)
    burst.poke()
    burst.stop()
    burst.poke()
    vi.advanceTimersByTime(5000)
    expect(calls).toBe(0)
  })
})
