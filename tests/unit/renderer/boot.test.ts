import { describe, expect, it } from 'vitest'
import type { TeamSnapshot } from '../../../src/shared/contract'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { TRANSCRIPT_FIRST_PAGE, TRANSCRIPT_PAGE } from '../../../src/renderer/store/queries'
import { createAppStore, type AppStore } from '../../../src/renderer/store/store'
import { fakeApi, snapshot } from './fake-api'

const base = { v: 1 as const, at: 1_700_000_000 }
const long: TranscriptRecord[] = Array.from({ length: 1200 }, (_, index) => ({
  ...base,
  seq: index + 1,
  kind: 'user' as const,
  from: 'user',
  text: `message ${index + 1}`,
}))

/** Resolves once the store has booted (or failed to). */
function booted(store: AppStore): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = store.subscribe((state) => {
      if (state.phase.kind === 'connecting') return
      unsubscribe()
      resolve()
    })
  })
}

function seqs(store: AppStore): { first: number | undefined; count: number } {
  const records = store.getState().transcripts['lead']?.records ?? []
  return { first: records[0]?.seq, count: records.length }
}

describe('booting the window', () => {
  it("asks for the lead's latest page together with the snapshot, and only once", async () => {
    const api = fakeApi({ transcripts: { lead: long } })
    let answerSnapshot: (team: TeamSnapshot) => void = () => undefined
    api.getSnapshot.mockImplementationOnce(
      () => new Promise<TeamSnapshot>((resolve) => (answerSnapshot = resolve)),
    )
    const store = createAppStore(api)
    const ready = booted(store)
    const stop = store.getState().start()
    await expect.poll(() => api.getSnapshot.mock.calls.length).toBe(1)
    // The snapshot has not been answered yet, and the transcript is already asked for.
    expect(api.getTranscript).toHaveBeenCalledWith({ name: 'lead', last: TRANSCRIPT_FIRST_PAGE })

    answerSnapshot(snapshot())
    await ready
    await expect.poll(() => store.getState().transcripts['lead']?.status).toBe('ready')
    expect(seqs(store)).toEqual({ first: 1200 - TRANSCRIPT_FIRST_PAGE + 1, count: 100 })
    // The view finds the page loaded (or loading): it does not ask again.
    await store.getState().loadTranscript('lead')
    expect(api.getTranscript).toHaveBeenCalledTimes(1)
    stop()
  })

  it('pages back in pages of TRANSCRIPT_PAGE records, down to the first', async () => {
    const api = fakeApi({ transcripts: { lead: long } })
    const store = createAppStore(api)
    const ready = booted(store)
    const stop = store.getState().start()
    await ready
    await expect.poll(() => store.getState().transcripts['lead']?.status).toBe('ready')

    const afterFirst = 1200 - TRANSCRIPT_FIRST_PAGE + 1
    await store.getState().loadOlderTranscript('lead')
    expect(api.getTranscript).toHaveBeenLastCalledWith({
      name: 'lead',
      fromSeq: afterFirst - TRANSCRIPT_PAGE,
      limit: TRANSCRIPT_PAGE,
    })
    expect(seqs(store)).toEqual({ first: afterFirst - TRANSCRIPT_PAGE, count: 600 })

    await store.getState().loadOlderTranscript('lead')
    expect(seqs(store)).toEqual({ first: afterFirst - 2 * TRANSCRIPT_PAGE, count: 1100 })
    await store.getState().loadOlderTranscript('lead')
    expect(seqs(store)).toEqual({ first: 1, count: 1200 })
    // At the first record there is nothing older to ask for.
    await store.getState().loadOlderTranscript('lead')
    expect(api.getTranscript).toHaveBeenCalledTimes(4)
    stop()
  })

  it("shows a lead page that failed as the transcript's failure", async () => {
    const api = fakeApi({ transcripts: { lead: long } })
    api.getTranscript.mockRejectedValueOnce({ name: 'TeamError', code: 'io', message: 'EIO' })
    const store = createAppStore(api)
    const ready = booted(store)
    const stop = store.getState().start()
    await ready
    await expect.poll(() => store.getState().transcripts['lead']?.status).toBe('failed')
    expect(store.getState().transcripts['lead']?.error).toContain('EIO')
    stop()
  })
})
