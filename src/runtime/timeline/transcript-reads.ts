import type { PriceOverrides } from '../../shared/prices'
import type { TimelineEntry, TimelineQuery } from '../../shared/timeline'
import type { TeamPaths } from '../team/paths'
import { readTranscriptTail } from './transcript-tail'
import { transcriptEntries, type Delivery } from './transcript-entries'

/** One agent's transcript as read for a query: its entries, and how much of it was read. */
export interface TranscriptRead {
  readonly name: string
  readonly entries: TimelineEntry[]
  readonly deliveries: Map<string, Delivery>
  /** Whether nothing older was left unread that the query could want. */
  readonly whole: boolean
  readonly firstAt: number | null
  readonly problems: string[]
  /** The time of the oldest record read (where an older entry would have to be). */
  readonly oldestAt: number
}

/** Records read from each transcript's end at first, for a `limit`: a share of it, at least. */
const FIRST_SHARE = 64

/**
 * Every agent's transcript, read from its end only as far as the query needs: back to `since`;
 * for a `limit`, back until the newest `limit` entries the query matches across all of them are
 * surely held. Each transcript starts with its share of the limit (twice `limit / agents`); then,
 * while one that was not read whole still reaches past the oldest of the newest `limit` entries
 * found, it is read again twice as far. Records are appended in time order, so what lies before
 * a transcript's oldest record read is older still.
 */
export function readTranscripts(
  paths: TeamPaths,
  names: readonly string[],
  prices: PriceOverrides,
  query: Pick<TimelineQuery, 'since' | 'limit'>,
  matches: (entry: TimelineEntry) => boolean,
): TranscriptRead[] {
  const limit = query.limit
  const share =
    limit === undefined
      ? undefined
      : Math.max(FIRST_SHARE, Math.ceil((2 * limit) / Math.max(1, names.length)))
  const reads = names.map((name) => readOne(paths, name, prices, share, query.since))
  if (limit === undefined) return reads
  for (;;) {
    const cutoff = newestCutoff(reads, limit, matches)
    let again = false
    reads.forEach((read, index) => {
      if (read.whole || read.oldestAt <= cutoff) return
      again = true
      reads[index] = readOne(
        paths,
        read.name,
        prices,
        read.entries.length * 2 + FIRST_SHARE,
        query.since,
      )
    })
    if (!again) return reads
  }
}

/** The time of the `limit`-th newest matching entry read, or -Infinity with fewer. */
function newestCutoff(
  reads: readonly TranscriptRead[],
  limit: number,
  matches: (entry: TimelineEntry) => boolean,
): number {
  const times: number[] = []
  for (const read of reads)
    for (const entry of read.entries) if (matches(entry)) times.push(entry.at)
  if (times.length < limit) return Number.NEGATIVE_INFINITY
  times.sort((a, b) => b - a)
  return times[limit - 1] ?? Number.NEGATIVE_INFINITY
}

function readOne(
  paths: TeamPaths,
  name: string,
  prices: PriceOverrides,
  records: number | undefined,
  since: number | undefined,
): TranscriptRead {
  const path = paths.transcript(name)
  try {
    const slice = readTranscriptTail(path, { records, since })
    const read = transcriptEntries(name, slice.records, prices)
    const oldestAt = slice.records[0]?.at ?? Number.NEGATIVE_INFINITY
    return {
      name,
      ...read,
      problems: [...slice.problems, ...read.problems].map((problem) => `${path} ${problem}`),
      // Read back past `since`: nothing older is wanted.
      whole: slice.whole || (since !== undefined && oldestAt < since),
      firstAt: slice.firstAt,
      oldestAt: slice.whole ? Number.NEGATIVE_INFINITY : oldestAt,
    }
  } catch (error) {
    return {
      name,
      entries: [],
      deliveries: new Map(),
      whole: true,
      firstAt: null,
      problems: [(error as Error).message],
      oldestAt: Number.NEGATIVE_INFINITY,
    }
  }
}
