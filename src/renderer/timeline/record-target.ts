import type { SearchPlace } from '../../shared/history'
import { LEAD } from '../../shared/names'
import type { TimelineEntry } from '../../shared/timeline'

/** Where a click on a timeline entry takes the person. */
export type RecordTarget =
  /** An agent's transcript or inbox, at the record (the search panel's way of opening a place). */
  | { readonly kind: 'place'; readonly agent: string; readonly place: SearchPlace }
  /** An agent's inbox, where the line is no longer known. */
  | { readonly kind: 'inbox'; readonly agent: string }
  | { readonly kind: 'task'; readonly id: string }
  | { readonly kind: 'needs-you'; readonly id: string }
  /** A teammate's changes (a commit on its branch). */
  | { readonly kind: 'changes'; readonly agent: string }
  /** Nothing to open (a line of the app's own logs): the entry's details say it all. */
  | { readonly kind: 'none' }

/** Where an entry's record is, for the window. Pure: the store does the opening. */
export function recordTarget(entry: TimelineEntry): RecordTarget {
  const source = entry.source
  switch (source.type) {
    case 'transcript':
      return {
        kind: 'place',
        agent: source.agent,
        place: { source: 'transcript', seq: source.seq },
      }
    case 'inbox':
      if (source.position !== null)
        return {
          kind: 'place',
          agent: source.agent,
          place: { source: 'inbox', position: source.position },
        }
      // The line is gone from the inbox (compacted away): the recipient's transcript holds it.
      if (entry.delivery?.seq != null)
        return {
          kind: 'place',
          agent: source.agent,
          place: { source: 'transcript', seq: entry.delivery.seq },
        }
      return { kind: 'inbox', agent: source.agent }
    case 'task':
      return { kind: 'task', id: source.id }
    case 'needs-you':
      return { kind: 'needs-you', id: source.id }
    case 'commit':
      return entry.agent === LEAD ? { kind: 'none' } : { kind: 'changes', agent: entry.agent }
    case 'log':
      return { kind: 'none' }
  }
}

/** The agent a target opens, if any: it must be on the roster for the window to show it. */
export function targetAgent(target: RecordTarget): string | null {
  return target.kind === 'place' || target.kind === 'inbox' || target.kind === 'changes'
    ? target.agent
    : null
}
