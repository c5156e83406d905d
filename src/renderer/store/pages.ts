import type { InboxEntryView, Result, TeamSnapshot } from '../../shared/contract'
import type { TranscriptRecord } from '../../shared/transcript'
import type { Budget, InboxState, Position, TeamData, TranscriptState } from './state'
import { own } from '../../shared/own'

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
  const transcript = own(state.transcripts, name) ?? emptyTranscript
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
  const inbox = own(state.inboxes, name) ?? emptyInbox
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
    // Entries before `from` stay as they are; only those from it on can be on the page.
    const found =
      from === null
        ? 0
        : inbox.entries.findIndex((entry) => comparePositions(entry.position, from) >= 0)
    const cut = found < 0 ? inbox.entries.length : found
    return {
      ...inbox,
      entries: sameEntries(inbox.entries, [
        ...inbox.entries.slice(0, cut),
        ...reuseUnchanged(inbox.entries.slice(cut), page.entries),
      ]),
      next: page.next,
      status: 'ready',
      error: null,
      loadingMore: false,
    }
  })
}

/**
 * The page's entries, with the loaded object kept for each one that did not change: the view
 * memoizes entries by identity, so a refresh renders only what is new or changed.
 */
function reuseUnchanged(
  loaded: readonly InboxEntryView[],
  read: readonly InboxEntryView[],
): InboxEntryView[] {
  if (loaded.length === 0) return [...read]
  const byPosition = new Map<string, InboxEntryView>()
  for (const entry of loaded) byPosition.set(positionKey(entry.position), entry)
  return read.map((entry) => {
    const before = byPosition.get(positionKey(entry.position))
    if (before === undefined) return entry
    if (sameEntry(before, entry) || settledMeanwhile(before, entry)) return before
    return entry
  })
}

/**
 * The page was read before a delivery or a rejection the events already reported: a final
 * state does not go back to pending for the same line.
 */
function settledMeanwhile(loaded: InboxEntryView, read: InboxEntryView): boolean {
  return (
    loaded.state !== 'pending' &&
    read.state === 'pending' &&
    sameEntry({ ...loaded, state: read.state, reason: read.reason }, read)
  )
}

/** Field by field (the position by value): a field added to the contract is compared too. */
function sameEntry(a: InboxEntryView, b: InboxEntryView): boolean {
  const keys = Object.keys(b) as (keyof InboxEntryView)[]
  if (Object.keys(a).length !== keys.length) return false
  if (comparePositions(a.position, b.position) !== 0) return false
  return keys.every((key) => key === 'position' || a[key] === b[key])
}

/** The loaded list itself when nothing in it changed (same objects, same order). */
function sameEntries(
  loaded: readonly InboxEntryView[],
  next: readonly InboxEntryView[],
): readonly InboxEntryView[] {
  if (loaded.length !== next.length) return next
  return next.every((entry, index) => entry === loaded[index]) ? loaded : next
}

export function inboxFailed(state: TeamData, name: string, message: string): TeamData {
  return setInbox(state, name, (inbox) => ({
    ...inbox,
    status: inbox.entries.length > 0 ? 'ready' : 'failed',
    error: message,
    loadingMore: false,
  }))
}

/**
 * Where a refresh re-reads from. Delivered and rejected are final states (the consumer's cursor
 * only moves forward), so only the entries still pending can change: it starts at the first
 * of them, or at the last entry when none is (re-read to find what follows it), and never more
 * than `overlap` entries back.
 */
export function inboxRefreshStart(
  entries: readonly InboxEntryView[],
  overlap: number,
): Position | null {
  if (entries.length === 0) return null
  const firstPending = entries.findIndex((entry) => entry.state === 'pending')
  const last = entries.length - 1
  const start = Math.max(entries.length - overlap, firstPending < 0 ? last : firstPending)
  return entries[Math.min(start, last)]?.position ?? null
}

/**
 * A fresh snapshot, read after a settings change: what no event reports (whether the team runs
 * offline, its default model), and the counts as they stand then.
 */
export function snapshotRefreshed(state: TeamData, snapshot: TeamSnapshot): TeamData {
  if (snapshot.workspace !== state.workspace) return state
  // Re-read after a settings change: what did not change keeps its object, so that the
  // components showing it (the roster, the panes) do not render again.
  let agents = state.agents
  for (const view of [snapshot.lead, ...snapshot.members]) {
    const agent = own(agents, view.name)
    if (agent === undefined) continue
    const rounds = Math.max(agent.rounds, view.rounds)
    const budget = sameBudget(agent.budget, view.budget) ? agent.budget : view.budget
    if (agent.pending === view.pending && agent.rounds === rounds && agent.budget === budget)
      continue
    agents = { ...agents, [view.name]: { ...agent, pending: view.pending, rounds, budget } }
  }
  const teamBudget = sameBudget(state.teamBudget, snapshot.teamBudget)
    ? state.teamBudget
    : snapshot.teamBudget
  if (
    agents === state.agents &&
    teamBudget === state.teamBudget &&
    snapshot.offline === state.offline &&
    snapshot.defaultModel === state.defaultModel
  )
    return state
  return {
    ...state,
    agents,
    teamBudget,
    offline: snapshot.offline,
    defaultModel: snapshot.defaultModel,
  }
}

function sameBudget(a: Budget, b: Budget): boolean {
  return a.tokens === b.tokens && a.rounds === b.rounds && a.usd === b.usd
}
