import { describe, expect, it } from 'vitest'
import { recordTarget } from '../../../../src/renderer/timeline/record-target'
import {
  arrowsIn,
  buildIndex,
  entriesIn,
  entryNear,
  laneOrder,
  laneRange,
  NO_FILTER,
  stepEntry,
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

describe('the keyboard and the list', () => {
  const index = buildIndex(entries, ['lead', 'alice', 'bob'], NO_FILTER, 200)

  it('moves along a lane, to its ends, and to the nearest entry in the lane below or above', () => {
    // From nothing: the entry of the first lane nearest the middle of the view.
    expect(stepEntry(index, null, 'next', 118)).toBe(2)
    expect(stepEntry(index, 2, 'previous', 0)).toBe(1)
    expect(stepEntry(index, 1, 'previous', 0)).toBe(1)
    expect(stepEntry(index, 1, 'last', 0)).toBe(2)
    // Down from the lead's entry at 110: alice's nearest is at 160; from there, bob's at 140.
    expect(stepEntry(index, 1, 'down', 0)).toBe(5)
    expect(stepEntry(index, 5, 'down', 0)).toBe(3)
    // Up from alice's at 160: the lead's at 120, the nearer of its two.
    expect(stepEntry(index, 5, 'up', 0)).toBe(2)
    expect(stepEntry(index, 1, 'up', 0)).toBe(1)
  })

  it('lists the entries in a window of time, at most so many', () => {
    expect(entriesIn(index, 110, 140, 100)).toEqual({ entries: [1, 2, 3], total: 3 })
    expect(entriesIn(index, 0, 1000, 2)).toEqual({ entries: [0, 1], total: 7 })
  })
})

describe('where a click on an entry leads', () => {
  it('opens a transcript record, an inbox line, a task, a Needs-you entry, or nothing', () => {
    expect(
      recordTarget(entry('1', 1, 'bob', { source: { type: 'transcript', agent: 'bob', seq: 9 } })),
    ).toEqual({
      kind: 'place',
      agent: 'bob',
      place: { source: 'transcript', seq: 9 },
    })
    expect(recordTarget(message('2', 1, 'lead', 'bob', 'pending', null))).toEqual({
      kind: 'place',
      agent: 'bob',
      place: { source: 'inbox', position: { segment: 1, offset: 0 } },
    })
    // A line no longer in the inbox: the recipient's transcript record that took it in.
    const gone = message('3', 1, 'lead', 'bob', 'delivered', 2)
    const compacted = {
      ...gone,
      source: { type: 'inbox' as const, agent: 'bob', id: '3', position: null },
    }
    expect(recordTarget(compacted)).toEqual({
      kind: 'place',
      agent: 'bob',
      place: { source: 'transcript', seq: 3 },
    })
    expect(
      recordTarget({ ...compacted, delivery: { state: 'pending', at: null, seq: null } }),
    ).toEqual({
      kind: 'inbox',
      agent: 'bob',
    })
    expect(recordTarget(entry('4', 1, 'lead', { source: { type: 'task', id: '7' } }))).toEqual({
      kind: 'task',
      id: '7',
    })
    expect(
      recordTarget(entry('5', 1, 'bob', { source: { type: 'needs-you', id: 'ny-2' } })),
    ).toEqual({
      kind: 'needs-you',
      id: 'ny-2',
    })
    expect(
      recordTarget(
        entry('6', 1, 'bob', { source: { type: 'commit', commit: 'abc', branch: 'team/bob' } }),
      ),
    ).toEqual({ kind: 'changes', agent: 'bob' })
    expect(
      recordTarget(
        entry('7', 1, 'app', { source: { type: 'log', file: 'reactions.jsonl', id: 'r1' } }),
      ),
    ).toEqual({ kind: 'none' })
  })
})
