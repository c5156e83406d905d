import type { TimelineEntry } from '../../../../src/shared/timeline'

/** A timeline entry for tests: a transcript record of `agent` unless said otherwise. */
export function entry(
  id: string,
  at: number,
  agent: string,
  change: Partial<TimelineEntry> = {},
): TimelineEntry {
  return {
    id,
    at,
    end: null,
    kind: 'turn',
    agent,
    summary: `${agent} ${id}`,
    source: { type: 'transcript', agent, seq: 1 },
    failed: false,
    ...change,
  }
}

export function message(
  id: string,
  at: number,
  from: string,
  to: string,
  state: 'delivered' | 'pending' | 'rejected',
  deliveredAt: number | null,
): TimelineEntry {
  return entry(id, at, from, {
    kind: 'message',
    to,
    delivery: { state, at: deliveredAt, seq: deliveredAt === null ? null : 3 },
    source: { type: 'inbox', agent: to, id, position: { segment: 1, offset: 0 } },
  })
}
