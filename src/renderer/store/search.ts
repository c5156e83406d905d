import type { AgentTeamsApi } from '../../shared/contract'
import type {
  ExportRequest,
  ExportResult,
  SearchHit,
  SearchPlace,
  SearchQuery,
  SearchResult,
} from '../../shared/history'
import { own } from '../../shared/own'
import { describeFailure } from './failures'
import { transcriptFailed, transcriptOlderLoaded, transcriptOlderLoading } from './pages'
import type { GetState, SetState } from './store'

/** A place the person asked to see (a search hit): its view scrolls to it and marks it. */
export interface Reveal {
  readonly agent: string
  readonly place: SearchPlace
  /** Bumped on each request, so that the same hit opened twice scrolls again. */
  readonly request: number
}

export interface SearchState {
  /** The last query asked, kept so that the panel opens where the person left it. */
  readonly searchQuery: SearchQuery
  readonly searchStatus: 'idle' | 'searching' | 'ready' | 'failed'
  readonly searchResult: SearchResult | null
  /** The folder the result is from: a result from a team no longer open is not shown. */
  readonly searchWorkspace: string | null
  readonly searchError: string | null
  readonly reveal: Reveal | null
}

export const initialSearchState: SearchState = {
  searchQuery: { text: '' },
  searchStatus: 'idle',
  searchResult: null,
  searchWorkspace: null,
  searchError: null,
  reveal: null,
}

/** Records read before the revealed one, so that it does not sit at the top edge of what is loaded. */
const REVEAL_CONTEXT = 50

export interface SearchActions {
  /** Runs a search; a reply that a later search overtook is dropped. */
  searchHistory(query: SearchQuery): Promise<void>
  /** Opens the agent's transcript or inbox at the hit (the search panel closes). */
  openSearchHit(hit: SearchHit): void
  /** Reads an agent's transcript back to `seq` (and a little before), in one request. */
  loadTranscriptThrough(name: string, seq: number): Promise<void>
  exportHistory(request: ExportRequest): Promise<ExportResult>
}

export function createSearchActions(
  api: AgentTeamsApi,
  set: SetState,
  get: GetState,
): SearchActions {
  let latest = 0
  return {
    async searchHistory(query) {
      const asked = ++latest
      const workspace = get().workspace
      set({ searchQuery: query, searchStatus: 'searching', searchError: null })
      try {
        const result = await api.searchHistory(query)
        if (asked === latest)
          set({ searchResult: result, searchWorkspace: workspace, searchStatus: 'ready' })
      } catch (error) {
        if (asked === latest)
          set({ searchStatus: 'failed', searchError: describeFailure(error).message })
      }
    },
    openSearchHit(hit) {
      const view = hit.place.source === 'transcript' ? 'conversation' : 'inbox'
      set((state) => ({
        dialog: null,
        selected: hit.agent,
        view,
        reveal: { agent: hit.agent, place: hit.place, request: (state.reveal?.request ?? 0) + 1 },
      }))
    },
    async loadTranscriptThrough(name, seq) {
      const transcript = own(get().transcripts, name)
      if (transcript === undefined || transcript.loadingOlder || transcript.status !== 'ready')
        return
      const first = transcript.records[0]?.seq
      if (first === undefined || first <= seq) return
      const fromSeq = Math.max(1, seq - REVEAL_CONTEXT)
      const workspace = get().workspace
      set((state) => transcriptOlderLoading(state, name))
      try {
        const page = await api.getTranscript({ name, fromSeq, limit: first - fromSeq })
        if (get().workspace === workspace) set((state) => transcriptOlderLoaded(state, name, page))
      } catch (error) {
        if (get().workspace === workspace)
          set((state) => transcriptFailed(state, name, describeFailure(error).message))
      }
    },
    exportHistory: (request) => api.exportHistory(request),
  }
}
