import type { AgentTeamsApi } from '../../shared/contract'
import { own } from '../../shared/own'
import type { AwayDigest, Timeline, TimelineEntry } from '../../shared/timeline'
import { describeFailure } from '../store/failures'
import { addNotice } from '../store/notices'
import type { GetState, SetState } from '../store/store'
import { laneLabel } from './timeline-model'
import {
  firstPageQuery,
  leavesGap,
  mergePage,
  OLDER_PAGE,
  olderPageQuery,
  SMALLEST_PAGE,
} from './timeline-pages'
import { recordTarget, targetAgent, type RecordTarget } from './record-target'

/**
 * The timeline's slice of the store: the team's timeline as last read, the "While you were
 * away" digest, and a record the Board or Needs-you view is asked to open.
 */

export interface TimelineData {
  readonly status: 'idle' | 'loading' | 'ready' | 'failed'
  readonly timeline: Timeline | null
  /** Whether the oldest entries are in too (older pages are read after the newest). */
  readonly complete: boolean
  readonly error: string | null
  /** The folder it is of: a timeline of a team no longer open is not shown. */
  readonly workspace: string | null
}

export interface AwayDigestState {
  readonly digest: AwayDigest | null
  /** Shown to the person now. */
  readonly open: boolean
  readonly workspace: string | null
}

/** A task or Needs-you entry a timeline click asked its view to open. */
export interface TimelineFocus {
  readonly kind: 'task' | 'needs-you'
  readonly id: string
  /** Bumped on each click, so that the same entry opened twice opens again. */
  readonly request: number
}

export interface TimelineState {
  readonly timelineData: TimelineData
  readonly awayDigest: AwayDigestState
  readonly timelineFocus: TimelineFocus | null
}

export const initialTimelineState: TimelineState = {
  timelineData: { status: 'idle', timeline: null, complete: false, error: null, workspace: null },
  awayDigest: { digest: null, open: false, workspace: null },
  timelineFocus: null,
}

export interface TimelineActions {
  /**
   * Reads the newest page of the timeline and merges it in, then older pages until the whole
   * run is held; a later read stops an earlier one between pages.
   */
  loadTimeline(): Promise<void>
  /** Opens the record behind an entry: its transcript or inbox place, task, or Needs-you entry. */
  openTimelineEntry(entry: TimelineEntry): void
  /** Opens a record in its view (a timeline entry's, or a digest's waiting entry). */
  showRecord(target: RecordTarget): void
  /** The view the focus was for has opened the record. */
  timelineFocusShown(): void
  /** Asks for the digest and shows it when it interrupts (`digestInterrupts`); null on failure. */
  checkAwayDigest(): Promise<AwayDigest | null>
  /** Shows the digest whatever it holds (the Timeline view's button). */
  showAwayDigest(): Promise<void>
  /** The person has read the digest: the next one starts at its end. */
  dismissAwayDigest(): Promise<void>
  /**
   * The person sees the team now (the window is shown and no digest waits to be read): the next
   * digest starts here. Failures are not reported: the next look notes it again.
   */
  noteLook(): Promise<void>
}

/** Whether a digest says anything worth interrupting for. */
export function digestHasNews(digest: AwayDigest): boolean {
  return digest.finished.length > 0 || digest.failed.length > 0 || digest.waiting.length > 0
}

/**
 * How long since the person last looked before the digest opens by itself: a window that was
 * open and seen (its looks are noted every minute) has nothing to tell on a reload.
 */
export const AWAY_SECONDS = 15 * 60

/** Whether a digest opens by itself: news, and the person away long enough to have missed it. */
export function digestInterrupts(digest: AwayDigest): boolean {
  return digestHasNews(digest) && digest.until - digest.since >= AWAY_SECONDS
}

export function createTimelineActions(
  api: AgentTeamsApi,
  set: SetState,
  get: GetState,
): TimelineActions {
  let latest = 0
  let latestDigest = 0

  async function fetchDigest(force: boolean): Promise<AwayDigest | null> {
    const asked = ++latestDigest
    const workspace = get().workspace
    if (workspace === null) return null
    try {
      const digest = await api.getAwayDigest({})
      if (asked !== latestDigest || get().workspace !== workspace) return null
      set({ awayDigest: { digest, open: force || digestInterrupts(digest), workspace } })
      return digest
    } catch (error) {
      if (asked === latestDigest && force)
        get().reportFailure('Could not read what happened while you were away', error)
      return null
    }
  }

  return {
    async loadTimeline() {
      const asked = ++latest
      const workspace = get().workspace
      const current = (): boolean => asked === latest && get().workspace === workspace
      set((state) => ({
        timelineData:
          state.timelineData.workspace === workspace
            ? { ...state.timelineData, status: 'loading' }
            : { ...initialTimelineState.timelineData, status: 'loading', workspace },
      }))
      try {
        const first = await api.getTimeline(firstPageQuery())
        if (!current()) return
        set((state) => {
          const held = state.timelineData
          const gap = leavesGap(held.timeline, first)
          return {
            timelineData: {
              ...held,
              timeline: gap ? first : mergePage(held.timeline, first),
              complete: (held.complete && !gap) || !first.truncated,
              error: null,
            },
          }
        })
        let size = OLDER_PAGE
        for (;;) {
          const held = get().timelineData
          const query =
            held.complete || held.timeline === null ? null : olderPageQuery(held.timeline, size)
          if (query === null) break
          let page: Timeline
          try {
            page = await api.getTimeline(query)
          } catch (error) {
            // Too large for one frame of the socket: the same page, in halves.
            if (describeFailure(error).code !== 'message-too-large' || size <= SMALLEST_PAGE)
              throw error
            size = Math.max(SMALLEST_PAGE, Math.floor(size / 2))
            continue
          }
          if (!current()) return
          set((state) => ({
            timelineData: {
              ...state.timelineData,
              timeline: mergePage(state.timelineData.timeline, page),
              complete: !page.truncated,
            },
          }))
        }
        set((state) => ({ timelineData: { ...state.timelineData, status: 'ready' } }))
      } catch (error) {
        if (current())
          set((state) => ({
            timelineData: {
              ...state.timelineData,
              status: 'failed',
              error: describeFailure(error).message,
            },
          }))
      }
    },
    openTimelineEntry(entry) {
      get().showRecord(recordTarget(entry))
    },
    showRecord(target) {
      const agent = targetAgent(target)
      if (agent !== null && own(get().agents, agent) === undefined) {
        set((state) =>
          addNotice(state, {
            tone: 'info',
            title: `${laneLabel(agent)} is no longer on the team`,
            message: 'Its records stay on the timeline, but its views cannot be opened.',
          }),
        )
        return
      }
      const request = (get().timelineFocus?.request ?? 0) + 1
      switch (target.kind) {
        case 'place':
          set((state) => ({
            selected: target.agent,
            view: target.place.source === 'transcript' ? 'conversation' : 'inbox',
            reveal: {
              agent: target.agent,
              place: target.place,
              request: (state.reveal?.request ?? 0) + 1,
            },
          }))
          return
        case 'inbox':
          set({ selected: target.agent, view: 'inbox' })
          return
        case 'changes':
          set({ selected: target.agent, view: 'changes' })
          return
        case 'task':
        case 'needs-you':
          set({
            view: target.kind === 'task' ? 'board' : 'needs-you',
            timelineFocus: { kind: target.kind, id: target.id, request },
          })
          return
        case 'none':
          return
      }
    },
    timelineFocusShown() {
      set({ timelineFocus: null })
    },
    checkAwayDigest: () => fetchDigest(false),
    async showAwayDigest() {
      await fetchDigest(true)
    },
    async noteLook() {
      const { awayDigest, workspace } = get()
      if (workspace === null || (awayDigest.open && awayDigest.workspace === workspace)) return
      await api.markTimelineSeen({ at: Date.now() / 1000 }).catch(() => undefined)
    },
    async dismissAwayDigest() {
      const { digest, workspace } = get().awayDigest
      set((state) => ({ awayDigest: { ...state.awayDigest, open: false } }))
      if (digest === null || workspace !== get().workspace) return
      try {
        await api.markTimelineSeen({ at: digest.until })
      } catch (error) {
        get().reportFailure('Could not note that you have looked at the team', error)
      }
    },
  }
}
