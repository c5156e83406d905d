import { describe, expect, it } from 'vitest'
import type { Timeline, TimelineEntry } from '../../../../src/shared/timeline'
import {
  leavesGap,
  mergePage,
  olderPageQuery,
} from '../../../../src/renderer/timeline/timeline-pages'
import { entry, message } from './entries'

function timeline(entries: TimelineEntry[], truncated = false): Timeline {
  return {
    entries,
    agents: [...new Set(entries.map((each) => each.agent))],
    span: { start: 0, end: 100 },
    truncated,
    problems: [],
  }
}

describe('reading the timeline a page at a time', () => {
  const older = timeline([entry('a', 1, 'lead'), entry('b', 2, 'bob'), entry('c', 3, 'lead')])

  it('asks for the page before the oldest entry held, that instant included', () => {
    expect(olderPageQuery(older)).toEqual({ until: 1 + 1e-6, limit: 20_000 })
    expect(olderPageQuery(older, 500)).toEqual({ until: 1 + 1e-6, limit: 500 })
    expect(olderPageQuery(timeline([]))).toBeNull()
  })

  it('merges a page in time order, once per entry, the page’s copy replacing the held one', () => {
    const pending = message('m', 2.5, 'lead', 'bob', 'pending', null)
    const held = mergePage(older, timeline([pending, entry('d', 4, 'bob')]))
    expect(held.entries.map((each) => each.id)).toEqual(['a', 'b', 'm', 'c', 'd'])
    // Read again: the message was delivered meanwhile, and a new entry came.
    const delivered = message('m', 2.5, 'lead', 'bob', 'delivered', 3.5)
    const merged = mergePage(
      held,
      timeline([delivered, entry('d', 4, 'bob'), entry('e', 5, 'alice')]),
    )
    expect(merged.entries.map((each) => each.id)).toEqual(['a', 'b', 'm', 'c', 'd', 'e'])
    expect(merged.entries[2]?.delivery?.state).toBe('delivered')
    expect(merged.agents).toEqual(['lead', 'bob', 'alice'])
    // An older page under a newer one: the same instant read twice is one entry.
    const page = mergePage(timeline([entry('c', 3, 'lead'), entry('d', 4, 'bob')]), older)
    expect(page.entries.map((each) => each.id)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('sees a hole when more came since the last read than a page holds', () => {
    const newest = timeline([entry('x', 50, 'lead'), entry('y', 51, 'lead')], true)
    expect(leavesGap(older, newest)).toBe(true)
    expect(leavesGap(older, { ...newest, truncated: false })).toBe(false)
    expect(leavesGap(older, timeline([entry('c', 3, 'lead'), entry('y', 51, 'lead')], true))).toBe(
      false,
    )
    expect(leavesGap(null, newest)).toBe(false)
  })
})
