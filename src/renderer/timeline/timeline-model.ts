import { LEAD, USER } from '../../shared/names'
import type { TimelineEntry, TimelineKind } from '../../shared/timeline'

/**
 * The Timeline view's model, pure and unit-tested: which lanes are shown and in what order, the
 * entries of each lane sorted by time (so that drawing and hit-testing a viewport costs a binary
 * search, not a scan of 200,000 entries), and the arrows from each send to its delivery.
 */

/** The lane of the app itself (reactions, schedules), beside the person's (`user`). */
export const APP_LANE = 'app'

export interface TimelineFilter {
  readonly hiddenAgents: readonly string[]
  readonly hiddenKinds: readonly TimelineKind[]
}

export const NO_FILTER: TimelineFilter = { hiddenAgents: [], hiddenKinds: [] }

/** The lanes in order: the lead first, the teammates as the timeline lists them, then you and the app. */
export function laneOrder(agents: readonly string[]): string[] {
  const unique = [...new Set(agents)]
  const last = [USER, APP_LANE]
  const middle = unique.filter((name) => name !== LEAD && !last.includes(name))
  return [
    ...(unique.includes(LEAD) ? [LEAD] : []),
    ...middle,
    ...last.filter((name) => unique.includes(name)),
  ]
}

/** A message's arrow: from its send in the sender's lane to its delivery in the recipient's. */
export interface Arrow {
  /** The message entry's index in `entries`. */
  readonly entry: number
  readonly fromLane: number
  readonly toLane: number
  readonly from: number
  /** When it was delivered (or rejected); null while pending (drawn to the run's end). */
  readonly to: number | null
  readonly state: 'delivered' | 'pending' | 'rejected'
}

export interface TimelineIndex {
  readonly entries: readonly TimelineEntry[]
  /** The lanes shown, in order. */
  readonly lanes: readonly string[]
  /** Per lane: the indices of its shown entries, oldest first… */
  readonly byLane: readonly Int32Array[]
  /** …and their times, for binary search. */
  readonly timesByLane: readonly Float64Array[]
  /** The shown entries in time order (indices into `entries`), and their times. */
  readonly shown: Int32Array
  readonly shownTimes: Float64Array
  /** Arrows whose two lanes are both shown, by send time. */
  readonly arrows: readonly Arrow[]
  /** The longest arrow, in seconds: arrows ending in view started at most this long before it. */
  readonly longestArrow: number
}

/** Indexes the entries that pass the filter. Entries come oldest first (the contract's order). */
export function buildIndex(
  entries: readonly TimelineEntry[],
  agents: readonly string[],
  filter: TimelineFilter,
  runEnd: number,
): TimelineIndex {
  const hiddenAgents = new Set(filter.hiddenAgents)
  const hiddenKinds = new Set<TimelineKind>(filter.hiddenKinds)
  const lanes = laneOrder([...agents, ...entries.map((entry) => entry.agent)]).filter(
    (name) => !hiddenAgents.has(name),
  )
  const laneOf = new Map(lanes.map((name, index) => [name, index]))
  const perLane: number[][] = lanes.map(() => [])
  const shown: number[] = []
  const arrows: Arrow[] = []
  let longestArrow = 0
  entries.forEach((entry, index) => {
    const lane = laneOf.get(entry.agent)
    if (lane === undefined || hiddenKinds.has(entry.kind)) return
    perLane[lane]?.push(index)
    shown.push(index)
    const arrow = arrowOf(entry, index, lane, laneOf)
    if (arrow === null) return
    arrows.push(arrow)
    longestArrow = Math.max(longestArrow, (arrow.to ?? runEnd) - arrow.from)
  })
  return {
    entries,
    lanes,
    byLane: perLane.map((list) => Int32Array.from(list)),
    timesByLane: perLane.map((list) => Float64Array.from(list, (index) => entries[index]?.at ?? 0)),
    shown: Int32Array.from(shown),
    shownTimes: Float64Array.from(shown, (index) => entries[index]?.at ?? 0),
    arrows,
    longestArrow,
  }
}

/** The arrow of a message entry, when its recipient's lane is shown. */
export function arrowOf(
  entry: TimelineEntry,
  index: number,
  fromLane: number,
  laneOf: ReadonlyMap<string, number>,
): Arrow | null {
  if (entry.kind !== 'message' || entry.to === undefined || entry.delivery === undefined)
    return null
  const toLane = laneOf.get(entry.to)
  if (toLane === undefined) return null
  const { state, at } = entry.delivery
  // A rejection without a time ends where the send was: a stub into the recipient's lane.
  const to = state === 'pending' ? null : (at ?? entry.at)
  return { entry: index, fromLane, toLane, from: entry.at, to, state }
}

/** How many of `times` (sorted) are before `at`: the first index at or after it. */
export function lowerBound(times: ArrayLike<number>, at: number): number {
  let low = 0
  let high = times.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((times[middle] ?? 0) < at) low = middle + 1
    else high = middle
  }
  return low
}

/** How many of `times` (sorted) are at or before `at`. */
export function upperBound(times: ArrayLike<number>, at: number): number {
  let low = 0
  let high = times.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((times[middle] ?? 0) <= at) low = middle + 1
    else high = middle
  }
  return low
}

/** The range [first, end) of a lane's entries that start within [from, to]. */
export function laneRange(
  index: TimelineIndex,
  lane: number,
  from: number,
  to: number,
): [number, number] {
  const times = index.timesByLane[lane]
  if (times === undefined) return [0, 0]
  return [lowerBound(times, from), upperBound(times, to)]
}

/**
 * The entry nearest to time `at` in `lane` within `tolerance` seconds (a mark's half width),
 * a failed one preferred over a plain one at the same distance; null when none is that close.
 */
export function entryNear(
  index: TimelineIndex,
  lane: number,
  at: number,
  tolerance: number,
): number | null {
  const lanes = index.byLane[lane]
  if (lanes === undefined) return null
  const [first, end] = laneRange(index, lane, at - tolerance, at + tolerance)
  let best: number | null = null
  let bestDistance = Number.POSITIVE_INFINITY
  for (let position = first; position < end; position++) {
    const entryIndex = lanes[position] ?? -1
    const entry = index.entries[entryIndex]
    if (entry === undefined) continue
    const distance = Math.abs(entry.at - at) - (entry.failed ? 1e-9 : 0)
    if (distance < bestDistance) {
      best = entryIndex
      bestDistance = distance
    }
  }
  return best
}

/** The arrows to draw for the view [from, to]: those that overlap it, at most `limit`. */
export function arrowsIn(
  index: TimelineIndex,
  from: number,
  to: number,
  runEnd: number,
  limit: number,
): Arrow[] {
  const { arrows } = index
  let low = 0
  let high = arrows.length
  const earliest = from - index.longestArrow
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((arrows[middle]?.from ?? 0) < earliest) low = middle + 1
    else high = middle
  }
  const result: Arrow[] = []
  for (let position = low; position < arrows.length && result.length < limit; position++) {
    const arrow = arrows[position]
    if (arrow === undefined || arrow.from > to) break
    if ((arrow.to ?? runEnd) >= from) result.push(arrow)
  }
  return result
}

/** The shown entries within [from, to], oldest first: at most `limit`, and how many there are. */
export function entriesIn(
  index: TimelineIndex,
  from: number,
  to: number,
  limit: number,
): { readonly entries: number[]; readonly total: number } {
  const first = lowerBound(index.shownTimes, from)
  const end = upperBound(index.shownTimes, to)
  return {
    entries: Array.from(index.shown.subarray(first, Math.min(end, first + limit))),
    total: end - first,
  }
}

export type EntryMove = 'next' | 'previous' | 'first' | 'last' | 'up' | 'down'

/**
 * The entry a key press moves to from `current` (keyboard use of the chart): the next or
 * previous one in its lane, its first or last, or the one nearest in time in the lane above or
 * below.
 */
export function stepEntry(
  index: TimelineIndex,
  current: number | null,
  move: EntryMove,
  fallbackAt: number,
): number | null {
  const entry = current === null ? undefined : index.entries[current]
  const lane = entry === undefined ? 0 : index.lanes.indexOf(entry.agent)
  const at = entry?.at ?? fallbackAt
  if (entry === undefined || lane < 0) return nearestInLane(index, 0, at)
  if (move === 'up' || move === 'down') {
    for (
      let next = lane + (move === 'up' ? -1 : 1);
      next >= 0 && next < index.lanes.length;
      next += move === 'up' ? -1 : 1
    ) {
      const found = nearestInLane(index, next, at)
      if (found !== null) return found
    }
    return current
  }
  const list = index.byLane[lane]
  if (move === 'first') return list?.[0] ?? current
  if (move === 'last') return list?.[list.length - 1] ?? current
  const position = list === undefined ? -1 : list.indexOf(current ?? -1)
  const step = move === 'next' ? 1 : -1
  return list?.[position + step] ?? current
}

function nearestInLane(index: TimelineIndex, lane: number, at: number): number | null {
  const times = index.timesByLane[lane]
  const list = index.byLane[lane]
  if (times === undefined || list === undefined || list.length === 0) return null
  const after = Math.min(lowerBound(times, at), list.length - 1)
  const before = Math.max(0, after - 1)
  const pick =
    Math.abs((times[before] ?? 0) - at) <= Math.abs((times[after] ?? 0) - at) ? before : after
  return list[pick] ?? null
}

/** Each kind's name for people, in the filter and the table. */
export const KIND_LABELS: Readonly<Record<TimelineKind, string>> = {
  message: 'Messages',
  status: 'Status changes',
  turn: 'Model turns',
  tool: 'Tool calls',
  task: 'Tasks',
  approval: 'Approvals',
  budget: 'Budgets',
  compaction: 'Compactions',
  commit: 'Commits',
  merge: 'Merges',
  check: 'Checks',
  reaction: 'Reactions',
  schedule: 'Schedules',
}

/** A lane's name for people. */
export function laneLabel(name: string): string {
  if (name === LEAD) return 'Lead'
  if (name === USER) return 'You'
  if (name === APP_LANE) return 'App'
  return name
}
