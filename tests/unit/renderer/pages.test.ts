import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { reduceEvent } from '../../../src/renderer/store/reducer'
import {
  inboxPageLoaded,
  inboxRefreshStart,
  olderPageRange,
  snapshotRefreshed,
  transcriptLoading,
  transcriptOlderLoaded,
  transcriptTailLoaded,
} from '../../../src/renderer/store/pages'
import { initialTeamData, type TeamData } from '../../../src/renderer/store/state'
import { agentView, inboxEntry, snapshot } from './fake-api'

const record = (seq: number): TranscriptRecord => ({
  v: 1,
  seq,
  at: seq,
  kind: 'user',
  from: 'user',
  text: `t${seq}`,
})
const seqs = (state: TeamData, name = 'lead') =>
  state.transcripts[name]?.records.map((item) => item.seq)

const opened = reduceEvent(initialTeamData, {
  type: 'workspace-opened',
  snapshot: snapshot({ members: [agentView('bob', { pending: 5 })] }),
})

describe('transcript pages', () => {
  it('keeps records appended by events while the latest page was in flight', () => {
    let state = transcriptLoading(opened, 'lead')
    state = reduceEvent(state, { type: 'transcript-appended', agent: 'lead', record: record(11) })
    state = reduceEvent(state, { type: 'transcript-appended', agent: 'lead', record: record(12) })
    state = transcriptTailLoaded(state, 'lead', {
      records: [record(9), record(10), record(11)],
      total: 11,
    })
    expect(seqs(state)).toEqual([9, 10, 11, 12])
    expect(state.transcripts['lead']).toMatchObject({ status: 'ready', total: 12 })
  })

  it('prepends an older page without duplicates', () => {
    let state = transcriptTailLoaded(opened, 'lead', {
      records: [record(501), record(502)],
      total: 502,
    })
    expect(olderPageRange(state.transcripts['lead']?.records ?? [], 500)).toEqual({
      fromSeq: 1,
      limit: 500,
    })
    state = transcriptOlderLoaded(state, 'lead', {
      records: [record(499), record(500), record(501)],
      total: 502,
    })
    expect(seqs(state)).toEqual([499, 500, 501, 502])
  })

  it('knows when there is nothing older', () => {
    expect(olderPageRange([record(1)], 500)).toBeNull()
    expect(olderPageRange([], 500)).toBeNull()
    expect(olderPageRange([record(300)], 500)).toEqual({ fromSeq: 1, limit: 299 })
  })
})

describe('inbox pages', () => {
  it('appends the next page and replaces re-read entries in place', () => {
    let state = inboxPageLoaded(opened, 'bob', null, {
      entries: [inboxEntry(0), inboxEntry(10), inboxEntry(20)],
      next: null,
    })
    const from = inboxRefreshStart(state.inboxes['bob']?.entries ?? [], 2)
    expect(from).toEqual({ segment: 1, offset: 10 })
    state = inboxPageLoaded(state, 'bob', from, {
      entries: [inboxEntry(10, { state: 'delivered' }), inboxEntry(20), inboxEntry(30)],
      next: null,
    })
    expect(
      state.inboxes['bob']?.entries.map((entry) => `${entry.position.offset}:${entry.state}`),
    ).toEqual(['0:pending', '10:delivered', '20:pending', '30:pending'])
  })

  it('keeps the objects of re-read entries that did not change', () => {
    const loaded = inboxPageLoaded(opened, 'bob', null, {
      entries: [inboxEntry(0), inboxEntry(10), inboxEntry(20)],
      next: null,
    })
    const before = loaded.inboxes['bob']?.entries ?? []
    const from = { segment: 1, offset: 10 }
    const refreshed = inboxPageLoaded(loaded, 'bob', from, {
      entries: [inboxEntry(10), inboxEntry(20, { state: 'delivered' }), inboxEntry(30)],
      next: null,
    })
    const after = refreshed.inboxes['bob']?.entries ?? []
    expect(after).toHaveLength(4)
    expect(after[0]).toBe(before[0])
    expect(after[1]).toBe(before[1])
    expect(after[2]).not.toBe(before[2])
    expect(after[2]).toMatchObject({ state: 'delivered' })
    expect(after[3]).toEqual(inboxEntry(30))
  })

  it('re-reads from the first pending entry, at most `overlap` back', () => {
    const delivered = (offset: number) => inboxEntry(offset, { state: 'delivered' })
    expect(inboxRefreshStart([delivered(0), delivered(10), inboxEntry(20)], 50)).toEqual({
      segment: 1,
      offset: 20,
    })
    expect(inboxRefreshStart([delivered(0), inboxEntry(10), delivered(20)], 50)).toEqual({
      segment: 1,
      offset: 10,
    })
    // Nothing pending: the last entry, to find what follows it.
    expect(inboxRefreshStart([delivered(0), delivered(10)], 50)).toEqual({
      segment: 1,
      offset: 10,
    })
    const pending = Array.from({ length: 100 }, (_, index) => inboxEntry(index * 10))
    expect(inboxRefreshStart(pending, 50)).toEqual({ segment: 1, offset: 500 })
    expect(inboxRefreshStart([], 50)).toBeNull()
  })

  it('does not take a delivered line back to pending from a page read before the delivery', () => {
    let state = inboxPageLoaded(opened, 'bob', null, {
      entries: [inboxEntry(0), inboxEntry(10)],
      next: null,
    })
    state = reduceEvent(state, { type: 'message-delivered', agent: 'bob', ids: ['m0'] })
    state = inboxPageLoaded(state, 'bob', null, {
      entries: [inboxEntry(0), inboxEntry(10)],
      next: null,
    })
    expect(state.inboxes['bob']?.entries.map((entry) => entry.state)).toEqual([
      'delivered',
      'pending',
    ])
    // A different line at the same place (the file was replaced) is taken as read.
    state = inboxPageLoaded(state, 'bob', null, {
      entries: [inboxEntry(0, { id: 'other', content: 'a new file' })],
      next: null,
    })
    expect(state.inboxes['bob']?.entries[0]).toMatchObject({ id: 'other', state: 'pending' })
  })

  it('keeps the list itself when a refresh finds nothing new', () => {
    const page = { entries: [inboxEntry(0), inboxEntry(10)], next: null }
    const loaded = inboxPageLoaded(opened, 'bob', null, page)
    const again = inboxPageLoaded(loaded, 'bob', null, {
      entries: [inboxEntry(0), inboxEntry(10)],
      next: null,
    })
    expect(again.inboxes['bob']?.entries).toBe(loaded.inboxes['bob']?.entries)
  })
})

describe('a refreshed snapshot', () => {
  it('takes the unread counts for the open workspace only', () => {
    const fresh = snapshot({ members: [agentView('bob', { pending: 2 })] })
    expect(snapshotRefreshed(opened, fresh).agents['bob']?.pending).toBe(2)
    const elsewhere = snapshot({ workspace: '/else', members: [agentView('bob', { pending: 9 })] })
    expect(snapshotRefreshed(opened, elsewhere).agents['bob']?.pending).toBe(5)
  })

  it('takes budgets, rounds and the offline flag, which no event reports', () => {
    const fresh = snapshot({
      members: [agentView('bob', { rounds: 7, budget: { tokens: 5000, rounds: null, usd: null } })],
      teamBudget: { tokens: null, rounds: 40, usd: null },
      offline: true,
    })
    const next = snapshotRefreshed(opened, fresh)
    expect(next.agents['bob']).toMatchObject({
      rounds: 7,
      budget: { tokens: 5000, rounds: null, usd: null },
    })
    expect(next.teamBudget).toEqual({ tokens: null, rounds: 40, usd: null })
    expect(next.offline).toBe(true)
  })

  it('keeps the state when nothing in it changed, and unchanged agents', () => {
    const same = snapshot({ members: [agentView('bob', { pending: 5 })] })
    expect(snapshotRefreshed(opened, same)).toBe(opened)

    const twoMembers = reduceEvent(initialTeamData, {
      type: 'workspace-opened',
      snapshot: snapshot({ members: [agentView('bob'), agentView('carol')] }),
    })
    const next = snapshotRefreshed(
      twoMembers,
      snapshot({ members: [agentView('bob', { pending: 1 }), agentView('carol')] }),
    )
    expect(next.agents['bob']?.pending).toBe(1)
    expect(next.agents['carol']).toBe(twoMembers.agents['carol'])
    expect(next.agents['lead']).toBe(twoMembers.agents['lead'])
  })
})
