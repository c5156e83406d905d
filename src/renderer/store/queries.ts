import type { AgentTeamsApi } from '../../shared/contract'
import { describeFailure } from './failures'
import { liveSeeded } from './live-seed'
import type { Position } from './state'
import {
  inboxFailed,
  inboxLoading,
  inboxMoreLoading,
  inboxPageLoaded,
  inboxReading,
  inboxRefreshStart,
  olderPageRange,
  snapshotRefreshed,
  transcriptFailed,
  transcriptLoading,
  transcriptOlderLoaded,
  transcriptOlderLoading,
  transcriptTailLoaded,
  type TranscriptPage,
} from './pages'
import type { GetState, SetState } from './store'
import { own } from '../../shared/own'

/**
 * How many transcript records the latest page holds: enough to fill a tall window, and small
 * enough that the first paint does not wait for hundreds of rows to cross the wire and be parsed.
 */
export const TRANSCRIPT_FIRST_PAGE = 100

/** The request for an agent's latest transcript page (the first one a view shows). */
export function requestLatestTranscript(
  api: AgentTeamsApi,
  name: string,
): ReturnType<AgentTeamsApi['getTranscript']> {
  return api.getTranscript({ name, last: TRANSCRIPT_FIRST_PAGE })
}
/** How many records each older page holds, read as the person scrolls up. */
export const TRANSCRIPT_PAGE = 500
export const INBOX_PAGE = 200
/** Records read from the end of each transcript for the activity panes (last reply, last call). */
export const ACTIVITY_TAIL = 20
/**
 * At most this many loaded entries are re-read on a refresh: the pending ones at the end, whose
 * states may have changed (see inboxRefreshStart).
 */
export const INBOX_REFRESH_OVERLAP = 50

export interface Queries {
  loadTranscript(name: string): Promise<void>
  /**
   * Folds in a latest page already asked for (boot asks for the lead's beside the snapshot);
   * the view then finds it loading and does not ask again.
   */
  adoptTranscript(name: string, page: Promise<TranscriptPage>): Promise<void>
  loadOlderTranscript(name: string): Promise<void>
  /**
   * Gives the activity panes each agent's last reply and tool call from its transcript's end,
   * once per agent and workspace, for agents that have not streamed since the window opened.
   */
  loadActivity(names: readonly string[]): Promise<void>
  loadInbox(name: string): Promise<void>
  loadMoreInbox(name: string): Promise<void>
  refreshInbox(name: string): Promise<void>
  /**
   * Re-reads the snapshot for what a settings change decides and no event carries (whether the
   * team runs offline, its default model): coalesced, one request in flight and one more queued
   * at most.
   */
  refreshSnapshot(): void
}

export function createQueries(api: AgentTeamsApi, set: SetState, get: GetState): Queries {
  let countsInFlight = false
  let countsAgain = false
  const inboxesInFlight = new Set<string>()
  /** Agents whose activity was asked for, as `workspace NUL name`. */
  const activityAsked = new Set<string>()

  /** A reply that belongs to a workspace no longer open is dropped. */
  const sameWorkspace = (workspace: string | null) => get().workspace === workspace

  async function readInbox(name: string, from: Position | null, limit: number): Promise<void> {
    const workspace = get().workspace
    inboxesInFlight.add(name)
    set((state) => inboxReading(state, name))
    try {
      const page = await api.getInbox({ name, limit, ...(from ? { from } : {}) })
      if (sameWorkspace(workspace)) set((state) => inboxPageLoaded(state, name, from, page))
    } catch (error) {
      if (sameWorkspace(workspace))
        set((state) => inboxFailed(state, name, describeFailure(error).message))
    } finally {
      inboxesInFlight.delete(name)
    }
    // It changed again while we read, and the person is looking at it: read once more.
    const { inboxes, view, selected } = get()
    if (own(inboxes, name)?.stale === true && view === 'inbox' && selected === name)
      await queries.refreshInbox(name)
  }

  const queries: Queries = {
    async loadTranscript(name) {
      const existing = own(get().transcripts, name)
      if (existing !== undefined && existing.status !== 'failed') return
      await queries.adoptTranscript(name, requestLatestTranscript(api, name))
    },
    async adoptTranscript(name, request) {
      const workspace = get().workspace
      set((state) => transcriptLoading(state, name))
      try {
        const page = await request
        if (sameWorkspace(workspace)) set((state) => transcriptTailLoaded(state, name, page))
      } catch (error) {
        if (sameWorkspace(workspace))
          set((state) => transcriptFailed(state, name, describeFailure(error).message))
      }
    },
    async loadOlderTranscript(name) {
      const transcript = own(get().transcripts, name)
      if (transcript === undefined || transcript.loadingOlder || transcript.status !== 'ready')
        return
      const range = olderPageRange(transcript.records, TRANSCRIPT_PAGE)
      if (range === null) return
      const workspace = get().workspace
      set((state) => transcriptOlderLoading(state, name))
      try {
        const page = await api.getTranscript({ name, ...range })
        if (sameWorkspace(workspace)) set((state) => transcriptOlderLoaded(state, name, page))
      } catch (error) {
        if (sameWorkspace(workspace))
          set((state) => transcriptFailed(state, name, describeFailure(error).message))
      }
    },
    async loadActivity(names) {
      const workspace = get().workspace
      await Promise.all(
        names.map(async (name) => {
          const key = `${workspace}\0${name}`
          if (activityAsked.has(key)) return
          activityAsked.add(key)
          const loaded = own(get().transcripts, name)
          try {
            const records =
              loaded?.status === 'ready'
                ? loaded.records
                : (await api.getTranscript({ name, last: ACTIVITY_TAIL })).records
            if (sameWorkspace(workspace)) set((state) => liveSeeded(state, name, records))
          } catch {
            // The pane waits for the agent's next call; the transcript view reports the error.
            activityAsked.delete(key)
          }
        }),
      )
    },
    async loadInbox(name) {
      const existing = own(get().inboxes, name)
      if (existing !== undefined && existing.status !== 'failed' && !existing.stale) return
      if (existing?.stale === true) return queries.refreshInbox(name)
      set((state) => inboxLoading(state, name))
      await readInbox(name, null, INBOX_PAGE)
    },
    async loadMoreInbox(name) {
      const inbox = own(get().inboxes, name)
      if (inbox === undefined || inbox.next === null || inbox.loadingMore) return
      set((state) => inboxMoreLoading(state, name))
      await readInbox(name, inbox.next, INBOX_PAGE)
    },
    async refreshInbox(name) {
      const inbox = own(get().inboxes, name)
      if (inbox === undefined || inboxesInFlight.has(name)) return
      if (inbox.next !== null) {
        // Later pages are not loaded yet: "Load more" will read what was appended.
        set((state) => ({
          inboxes: { ...state.inboxes, [name]: { ...inbox, stale: false } },
        }))
        return
      }
      const from = inboxRefreshStart(inbox.entries, INBOX_REFRESH_OVERLAP)
      await readInbox(name, from, INBOX_PAGE + INBOX_REFRESH_OVERLAP)
    },
    refreshSnapshot() {
      if (countsInFlight) {
        countsAgain = true
        return
      }
      countsInFlight = true
      void (async () => {
        try {
          do {
            countsAgain = false
            const snapshot = await api.getSnapshot({})
            if (snapshot !== null) set((state) => snapshotRefreshed(state, snapshot))
          } while (countsAgain)
        } catch {
          // The data stays as the events left it; the next settings change tries again.
        } finally {
          countsInFlight = false
        }
      })()
    },
  }
  return queries
}
