import type { InboxEntryView, Result, TeamSnapshot } from '../../shared/contract'
import type { TranscriptRecord } from '../../shared/transcript'
import type { InboxState, Position, TeamData, TranscriptState } from './state'

/**
 * Pure folds of query replies (transcript and inbox pages, a fresh snapshot) into the data.
 * Events may land while a query is in flight, so every merge keeps what they added.
 */

export type TranscriptPage = Result<'getTranscript'>
export type InboxPage = Result<'getInbox'>

const emptyTranscript: TranscriptState = {
  records: [],
  total: 0,
  status: 'loading',
  error: null,
  loadingOlder: false,
}

function setTranscript(
  state: TeamData,
  name: string,
  change: (transcript: TranscriptState) => TranscriptState,
): TeamData {
  const transcript = state.transcripts[name] ?? emptyTranscript
  return { ...state, transcripts: { ...state.transcripts, [name]: change(transcript) } }
}

export function transcriptLoading(state: TeamData, name: string): TeamData {
  return setTranscript(state, name, (transcript) => ({
    ...transcript,
    status: 'loading',
    error: null,
  }))
}

/** The latest page arrived: records appended meanwhile (by events) stay after it. */
export function transcriptTailLoaded(
  state: TeamData,
  name: string,
  page: TranscriptPage,
): TeamData {
  return setTranscript(state, name, (transcript) => {
    const last = page.records[page.records.length - 1]?.seq ?? 0
    const later = transcript.records.filter((record) => record.seq > last)
    const records = [...page.records, ...later]
    return {
      ...transcript,
      records,
      total: Math.max(page.total, records[records.length - 1]?.seq ?? 0),
      status: 'ready',
      error: null,
    }
  })
}

export function transcriptOlderLoading(state: TeamData, name: string): TeamData {
  return setTranscript(state, name, (transcript) => ({ ...transcript, loadingOlder: true }))
}

export function transcriptOlderLoaded(
  state: TeamData,
  name: string,
  page: TranscriptPage,
): TeamData {
  return setTranscript(state, name, (transcript) => {
    const first = transcript.records[0]?.seq ?? Number.POSITIVE_INFINITY
    const older = page.records.filter((record) => record.seq < first)
    return { ...transcript, records: [...older, ...transcript.records], loadingOlder: false }
  })
}

export function transcriptFailed(state: TeamData, name: string, message: string): TeamData {
  return setTranscript(state, name, (transcript) => ({
    ...transcript,
    status: transcript.records.length > 0 ? 'ready' : 'failed',
    loadingOlder: false,
    error: message,
  }))
}

/** Where the page before `records` starts, and how long it is; null at the beginning. */
export function olderPageRange(
  records: readonly TranscriptRecord[],
  pageSize: number,
): { fromSeq: number; limit: number } | null {
  const first = records[0]?.seq
  if (first === undefined || first <= 1) return null
  const fromSeq = Math.max(1, first - pageSize)
  return { fromSeq, limit: first - fromSeq }
}

const emptyInbox: InboxState = {
  entries: [],
  next: null,
  status: 'loading',
  error: null,
  stale: false,
  loadingMore: false,
}

function setInbox(
  state: TeamData,
  name: string,
  change: (inbox: InboxState) => InboxState,
): TeamData {
  const inbox = state.inboxes[name] ?? emptyInbox
  return { ...state, inboxes: { ...state.inboxes, [name]: change(inbox) } }
}

export function inboxLoading(state: TeamData, name: string): TeamData {
  return setInbox(state, name, (inbox) => ({ ...inbox, status: 'loading', error: null }))
}

/** A read starts: changes seen from now on mark the inbox stale again. */
export function inboxReading(state: TeamData, name: string): TeamData {
  return setInbox(state, name, (inbox) => ({ ...inbox, stale: false }))
}

export function inboxMoreLoading(state: TeamData, name: string): TeamData {
  return setInbox(state, name, (inbox) => ({ ...inbox, loadingMore: true }))
}

export function positionKey(position: Position): string {
  return `${position.segment}:${position.offset}`
}

export function comparePositions(a: Position, b: Position): number {
  return a.segment === b.segment ? a.offset - b.offset : a.segment - b.segment
}

/**
 * A page read from `from` on: entries before `from` stay, entries from `from` on are replaced by
 * the page's (their states may have changed), in file order.
 */
export function inboxPageLoaded(
  state: TeamData,
  name: string,
  from: Position | null,
  page: InboxPage,
): TeamData {
  return setInbox(state, name, (inbox) => {
    const kept =
      from === null
        ? []
        : inbox.entries.filter((entry) => comparePositions(entry.position, from) < 0)
    return {
      ...inbox,
      entries: [...kept, ...page.entries],
      next: page.next,
      status: 'ready',
      error: null,
      loadingMore: false,
    }
  })
}

export function inboxFailed(state: TeamData, name: string, message: string): TeamData {
  return setInbox(state, name, (inbox) => ({
    ...inbox,
    status: inbox.entries.length > 0 ? 'ready' : 'failed',
    error: message,
    loadingMore: false,
  }))
}

/** Where a refresh re-reads from: the last few loaded entries (their states may change). */
export function inboxRefreshStart(
  entries: readonly InboxEntryView[],
  overlap: number,
): Position | null {
  if (entries.length === 0) return null
  return entries[Math.max(0, entries.length - overlap)]?.position ?? null
}

/**
 * A fresh snapshot: the truth the optimistic counts converge to (unread messages, rounds) and
 * what no event reports (budgets, whether the team runs offline).
 */
export function snapshotRefreshed(state: TeamData, snapshot: TeamSnapshot): TeamData {
  if (snapshot.workspace !== state.workspace) return state
  const agents = { ...state.agents }
  for (const view of [snapshot.lead, ...snapshot.members]) {
    const agent = agents[view.name]
    if (agent !== undefined)
      agents[view.name] = {
        ...agent,
        pending: view.pending,
        rounds: Math.max(agent.rounds, view.rounds),
        budget: view.budget,
      }
  }
  return { ...state, agents, teamBudget: snapshot.teamBudget, offline: snapshot.offline }
}
