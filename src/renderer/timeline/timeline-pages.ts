import type { Timeline, TimelineQuery } from '../../shared/timeline'

/**
 * The window reads the timeline a page at a time: the newest entries first (the view draws
 * them at once), then older pages until the whole run is in, so that replay and the lanes cover
 * it. A refresh reads the newest page again and merges it in: new entries are added, and those
 * whose record changed (a message delivered since) are replaced. Pure, and unit-tested.
 */

/** What opening the view asks first (the runtime's benchmark measures this query). */
export const FIRST_PAGE = 2000
/**
 * Each older page after it: a page must fit in one frame of browser mode's socket (16 MiB; an
 * entry's summary is at most 500 characters). A page refused as too large is asked again at
 * half the size.
 */
export const OLDER_PAGE = 20_000
export const SMALLEST_PAGE = 500

export function firstPageQuery(): TimelineQuery {
  return { limit: FIRST_PAGE }
}

/**
 * The page before what is held: `until` is exclusive, so it reaches a hair past the oldest held
 * entry (entries of the same instant that the newest page left out come too; those already held
 * are merged away by id).
 */
export function olderPageQuery(held: Timeline, limit = OLDER_PAGE): TimelineQuery | null {
  const oldest = held.entries[0]?.at
  if (oldest === undefined) return null
  return { until: oldest + 1e-6, limit }
}

/** `page`'s entries merged into `held`'s by id (the page's copy wins), in time order. */
export function mergePage(held: Timeline | null, page: Timeline): Timeline {
  if (held === null) return page
  const replaced = new Set(page.entries.map((entry) => entry.id))
  const kept = held.entries.filter((entry) => !replaced.has(entry.id))
  // Both are in time order: a merge of two sorted lists keeps ties in their read order.
  const entries = []
  let a = 0
  let b = 0
  while (a < kept.length || b < page.entries.length) {
    const left = kept[a]
    const right = page.entries[b]
    if (right === undefined || (left !== undefined && left.at <= right.at)) {
      entries.push(left!)
      a++
    } else {
      entries.push(right)
      b++
    }
  }
  return {
    entries,
    agents: [...new Set([...held.agents, ...page.agents])],
    span: page.span ?? held.span,
    truncated: false,
    problems: [...new Set([...page.problems, ...held.problems])].slice(0, 200),
  }
}

/**
 * Whether a newest page leaves a hole after what is held (more entries came since the last read
 * than one page holds): then what is held is read again, from the newest page back.
 */
export function leavesGap(held: Timeline | null, page: Timeline): boolean {
  const newestHeld = held?.entries[held.entries.length - 1]?.at
  const oldestRead = page.entries[0]?.at
  return (
    page.truncated &&
    newestHeld !== undefined &&
    oldestRead !== undefined &&
    oldestRead > newestHeld
  )
}
