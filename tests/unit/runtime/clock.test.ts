import { describe, expect, it } from 'vitest'
import { randomIds, sequentialIds, type Clock } from '../../../src/runtime/system/clock'
import { parseMessageLine } from '../../../src/shared/messages'

/** A clock that moves on by a millisecond every `readings` readings. */
function slowClock(startMs: number, readings: number): Clock {
  let count = 0
  return { now: () => startMs + Math.floor(count++ / readings) }
}

const ID_FORMAT = /^m-[0-9a-z]{9}[0-9a-z]{4}[0-9a-f]{10}$/

describe('randomIds', () => {
  it('gives ids the wire format accepts: prefix, time, counter, random part', () => {
    const id = randomIds().next('m')
    expect(id).toMatch(ID_FORMAT)
    const line = JSON.stringify({ id, type: 'message', from: 'lead', content: 'x', timestamp: 1 })
    const verdict = parseMessageLine(line, 'alice', 'p1-0')
    expect(verdict.ok && verdict.message.id).toBe(id)
  })

  it('never repeats an id within a source, even within one millisecond', () => {
    const frozen: Clock = { now: () => Date.UTC(2026, 0, 1) }
    const ids = randomIds(frozen)
    const seen = new Set(Array.from({ length: 100_000 }, () => ids.next('m')))
    expect(seen.size).toBe(100_000)
  })

  it('two sources (two processes, or a restart) on the same clock never meet', () => {
    const frozen: Clock = { now: () => Date.UTC(2026, 0, 1) }
    const first = Array.from({ length: 1000 }, randomIds(frozen).next.bind(null, 'm'))
    const second = new Set(Array.from({ length: 1000 }, randomIds(frozen).next.bind(null, 'm')))
    expect(first.filter((id) => second.has(id))).toEqual([])
    // The random part is drawn once per source, and differs between sources.
    const tail = (id: string) => id.slice(-10)
    expect(new Set(first.map(tail)).size).toBe(1)
    expect(tail(first[0]!)).not.toBe(tail([...second][0]!))
  })

  it('sorts by creation time, across milliseconds and within one', () => {
    const ids = randomIds(slowClock(Date.UTC(2026, 0, 1), 4))
    const made = Array.from({ length: 2000 }, () => ids.next('m'))
    expect([...made].sort()).toEqual(made)
  })
})

describe('sequentialIds', () => {
  it('counts from 1', () => {
    const ids = sequentialIds()
    expect([ids.next('m'), ids.next('m'), ids.next('x')]).toEqual(['m-1', 'm-2', 'x-3'])
  })
})
