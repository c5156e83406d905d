import { describe, expect, it } from 'vitest'
import {
  arrowsIn,
  buildIndex,
  entryNear,
  laneOrder,
  laneRange,
  NO_FILTER,
} from '../../../../src/renderer/timeline/timeline-model'
import { entry, message } from './entries'

const entries = [
  entry('1', 100, 'bob'),
  message('2', 110, 'lead', 'bob', 'delivered', 130),
  entry('3', 120, 'lead', { kind: 'tool', failed: true }),
  message('4', 140, 'bob', 'lead', 'pending', null),
  entry('5', 150, 'app', { kind: 'reaction' }),
  message('6', 160, 'alice', 'bob', 'rejected', null),
  entry('7', 170, 'alice', { kind: 'task' }),
]

describe('the timeline lanes', () => {
  it('puts the lead first, teammates in the given order, then you and the app', () => {
    expect(laneOrder(['app', 'bob', 'user', 'lead', 'alice', 'bob'])).toEqual([
      'lead',
      'bob',
      'alice',
      'user',
      'app',
    ])
  })

  it('gives every agent with entries a lane, even one the timeline did not list', () => {
    const index = buildIndex(entries, ['lead', 'alice'], NO_FILTER, 200)
    expect(index.lanes).toEqual(['lead', 'alice', 'bob', 'app'])
    expect([...(index.byLane[0] ?? [])]).toEqual([1, 2])
    expect([...(index.byLane[2] ?? [])]).toEqual([0, 3])
    expect([...index.shown]).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('leaves out hidden agents and kinds, and the arrows into a hidden lane', () => {
    const index = buildIndex(
      entries,
      ['lead', 'alice', 'bob'],
      { hiddenAgents: ['bob'], hiddenKinds: ['tool', 'reaction'] },
      200,
    )
    expect(index.lanes).toEqual(['lead', 'alice', 'app'])
    expect([...index.shown]).toEqual([1, 5, 6])
    // The lead's and alice's messages went to bob, whose lane is hidden: no arrows.
    expect(index.arrows).toEqual([])
    const noMessages = buildIndex(entries, [], { hiddenAgents: [], hiddenKinds: ['message'] }, 200)
    expect(noMessages.arrows).toEqual([])
  })
})

describe('the arrows from a send to its delivery', () => {
  const index = buildIndex(entries, ['lead', 'alice', 'bob'], NO_FILTER, 200)

  it('pairs each message with its recipient lane and its delivery state', () => {
    expect(index.arrows).toEqual([
      { entry: 1, fromLane: 0, toLane: 2, from: 110, to: 130, state: 'delivered' },
      { entry: 3, fromLane: 2, toLane: 0, from: 140, to: null, state: 'pending' },
      { entry: 5, fromLane: 1, toLane: 2, from: 160, to: 160, state: 'rejected' },
    ])
    // The pending one reaches the run's end: 60 s, the longest.
    expect(index.longestArrow).toBe(60)
  })

  it('draws the arrows that overlap the view, one that started before it included', () => {
    expect(arrowsIn(index, 125, 135, 200, 100).map((arrow) => arrow.entry)).toEqual([1])
    // The pending arrow runs to the end of the run, through a view after its send.
    expect(arrowsIn(index, 190, 195, 200, 100).map((arrow) => arrow.entry)).toEqual([3])
    expect(arrowsIn(index, 0, 300, 200, 2).map((arrow) => arrow.entry)).toEqual([1, 3])
    expect(arrowsIn(index, 0, 50, 200, 100)).toEqual([])
  })
})

describe('finding entries in a lane', () => {
  const many = Array.from({ length: 1000 }, (_, at) =>
    entry(String(at), at, at % 2 === 0 ? 'lead' : 'bob', { failed: at === 501 }),
  )
  const index = buildIndex(many, ['lead', 'bob'], NO_FILTER, 1000)

  it('finds the range of a lane within a time window by binary search', () => {
    expect(laneRange(index, 0, 10, 20)).toEqual([5, 11])
    expect(laneRange(index, 1, 10, 20)).toEqual([5, 10])
    expect(laneRange(index, 0, 2000, 3000)).toEqual([500, 500])
  })

  it('hits the nearest entry within the tolerance, and nothing beyond it', () => {
    expect(entryNear(index, 0, 10.4, 1)).toBe(10)
    expect(entryNear(index, 1, 10.4, 1)).toBe(11)
    expect(entryNear(index, 1, 10.4, 0.2)).toBeNull()
    expect(entryNear(index, 5, 10, 1)).toBeNull()
  })
})
