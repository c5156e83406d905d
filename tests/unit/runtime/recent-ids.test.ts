import { describe, expect, it } from 'vitest'
import { RecentIds } from '../../../src/runtime/mailbox/recent-ids'

function held(recent: RecentIds, candidates: readonly string[]): string[] {
  return candidates.filter((id) => recent.has(id))
}

const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => `m-${from + index}`)

describe('RecentIds', () => {
  it('keeps exactly the last `capacity` ids, forgetting the oldest first', () => {
    const recent = new RecentIds(3)
    for (const id of ids(0, 3)) recent.add(id)
    expect(held(recent, ids(0, 10))).toEqual(['m-0', 'm-1', 'm-2'])
    recent.add('m-3')
    expect(held(recent, ids(0, 10))).toEqual(['m-1', 'm-2', 'm-3'])
    for (const id of ids(4, 9)) recent.add(id)
    expect(held(recent, ids(0, 10))).toEqual(['m-6', 'm-7', 'm-8'])
    expect(recent.size).toBe(3)
  })

  it('over many turns of the ring, holds the last N and nothing else', () => {
    const recent = new RecentIds(1000)
    for (const id of ids(0, 25_500)) recent.add(id)
    expect(recent.size).toBe(1000)
    expect(held(recent, ids(0, 25_500))).toEqual(ids(24_500, 25_500))
  })

  it('a repeat changes nothing: it neither counts again nor moves to the back', () => {
    const recent = new RecentIds(2)
    recent.add('a')
    recent.add('b')
    recent.add('a')
    expect(recent.size).toBe(2)
    recent.add('c')
    expect(held(recent, ['a', 'b', 'c'])).toEqual(['b', 'c'])
  })

  it('starts from the given ids, keeping the last `capacity` of them', () => {
    expect(held(new RecentIds(5, ids(0, 3)), ids(0, 3))).toEqual(ids(0, 3))
    expect(held(new RecentIds(2, ids(0, 4)), ids(0, 4))).toEqual(['m-2', 'm-3'])
  })

  it('refuses a capacity below 1', () => {
    expect(() => new RecentIds(0)).toThrow(RangeError)
    expect(() => new RecentIds(Number.NaN)).toThrow(RangeError)
  })
})
