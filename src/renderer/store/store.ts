import { createStore, type StoreApi } from 'zustand/vanilla'
import { hostEventSchema, type AgentTeamsApi, type HostEvent } from '../../shared/contract'
import { LEAD } from '../../shared/names'
import { addNotice, dismissNotice } from './notices'
import { reviewDismissed } from './protocols'
import { reduceEvents } from './reducer'
import { initialTeamData, type TeamData } from './state'
import { createCommands, type Commands } from './commands'
import { isTeamView } from './ui'
import { createQueries, requestLatestTranscript, type Queries } from './queries'
import { createProjectCommands, type ProjectCommands } from './project-commands'
import { createReviewCommands, type ReviewCommands } from './review-commands'
import { createUndoCommands, type UndoCommands } from './undo-commands'
import { createScheduleCommands, type ScheduleCommands } from './schedule-commands'
import { describeFailure } from './failures'
import { runMenuCommand } from './menu-commands'
import {
  initialUiState,
  type ConnectionStatus,
  type DialogState,
  type MainView,
  type UiState,
} from './ui'
import { own } from '../../shared/own'
import {
  createSearchActions,
  initialSearchState,
  type SearchActions,
  type SearchState,
} from './search'
import {
  createTimelineActions,
  initialTimelineState,
  type TimelineActions,
  type TimelineState,
} from '../timeline/timeline-store'

export interface CoreActions {
  /** Subscribes to the host's events and loads the first state; returns the unsubscribe. */
  start(): () => void
  /** A batch as it came off the wire: parsed against the contract, then folded in one set(). */
  receiveEvents(batch: readonly unknown[]): void
  applyEvents(events: readonly HostEvent[]): void
  select(name: string, view?: MainView): void
  showView(view: MainView): void
  /** Opens the Changes view of a task's owner, scoped to that task. */
  openTaskChanges(name: string, task: string): void
  /** The Changes view took the task asked for: a later visit opens on the whole branch. */
  taskChangesShown(): void
  toggleRoster(): void
  openDialog(dialog: DialogState): void
  closeDialog(): void
  setToolExpanded(id: string, expanded: boolean): void
  requestComposerFocus(): void
  composerFocused(request: number): void
  dismissNotice(id: number): void
  /** Takes a settled plan the person answered out of the lead chat. */
  dismissReview(requestId: string): void
  reportFailure(title: string, error: unknown): void
  finishFirstRun(): void
  setConnection(connection: ConnectionStatus): void
}

export type AppState = TeamData &
  UiState &
  SearchState &
  CoreActions &
  Commands &
  ProjectCommands &
  Queries &
  SearchActions &
  ReviewCommands &
  UndoCommands &
  ScheduleCommands &
  TimelineState &
  TimelineActions
export type AppStore = StoreApi<AppState>
export type SetState = AppStore['setState']
export type GetState = AppStore['getState']

/** One store from slices: the folded data, the window's own state, and the actions beside them. */
export function createAppStore(api: AgentTeamsApi): AppStore {
  return createStore<AppState>()((set, get) => {
    const queries = createQueries(api, set, get)
    const commands = createCommands(api, set, get)
    const search = createSearchActions(api, set, get)

    const core: CoreActions = {
      start() {
        const subscription = api.onEvents((batch) => get().receiveEvents(batch))
        void boot()
        // A function, as the effect that starts the store wants.
        return () => subscription.dispose()
      },
      receiveEvents(batch) {
        const events: HostEvent[] = []
        const problems: string[] = []
        for (const raw of batch) {
          const parsed = hostEventSchema.safeParse(raw)
          if (parsed.success) events.push(parsed.data)
          else problems.push(parsed.error.issues[0]?.message ?? 'does not match the contract')
        }
        if (problems.length > 0) {
          set((state) =>
            addNotice(state, {
              tone: 'warning',
              title: `${problems.length} event(s) from the app were ignored`,
              message: problems.join('; '),
            }),
          )
        }
        if (events.length > 0) get().applyEvents(events)
      },
      applyEvents(events) {
        set((state) => reduceEvents(state, events))
        const { view, selected, inboxes, agents } = get()
        if (own(agents, selected) === undefined && own(agents, LEAD) !== undefined)
          set({ selected: LEAD, view: isTeamView(view) ? view : 'conversation' })
        // The open inbox is read again; the counts came with the events.
        if (view === 'inbox' && own(inboxes, selected)?.stale === true)
          void get().refreshInbox(selected)
        for (const event of events)
          if (event.type === 'menu-command') runMenuCommand(get(), event.command)
      },
      select(name, view) {
        set((state) => ({
          selected: name,
          view: view ?? (isTeamView(state.view) ? 'conversation' : state.view),
        }))
      },
      showView(view) {
        set({ view })
      },
      openTaskChanges(name, task) {
        set({ selected: name, view: 'changes', changesTask: { name, task } })
      },
      taskChangesShown() {
        set({ changesTask: null })
      },
      toggleRoster() {
        set((state) => ({ rosterHidden: !state.rosterHidden }))
      },
      openDialog(dialog) {
        set({ dialog })
      },
      closeDialog() {
        set({ dialog: null })
      },
      setToolExpanded(id, expanded) {
        set((state) => ({ expandedTools: { ...state.expandedTools, [id]: expanded } }))
      },
      requestComposerFocus() {
        // The inbox has a composer of its own; the activity panes have none.
        set((state) => ({
          view: isTeamView(state.view) ? 'conversation' : state.view,
          composerFocusRequest: state.composerFocusRequest + 1,
        }))
      },
      composerFocused(request) {
        set({ composerFocusHandled: request })
      },
      dismissNotice(id) {
        set((state) => dismissNotice(state, id))
      },
      dismissReview(requestId) {
        set((state) => reviewDismissed(state, requestId))
      },
      reportFailure(title, error) {
        const failure = describeFailure(error)
        set((state) =>
          addNotice(state, {
            tone: 'error',
            title,
            message: failure.message,
          }),
        )
      },
      finishFirstRun() {
        set({ firstRunDone: true })
      },
      setConnection(connection) {
        const before = get().connection
        set({ connection })
        // Events sent while the connection was down are lost: read the whole state again.
        if (before !== 'connected' && connection === 'connected') void resync()
      },
    }

    async function boot(): Promise<void> {
      try {
        // Everything the first paint needs is asked for at once, not after the answer to
        // getInfo: one round trip instead of two. The snapshot is null without a folder open;
        // the lead's latest page is on its way while the roster renders.
        const leadTail = requestLatestTranscript(api, LEAD)
        // A failed page is reported by adoptTranscript; until then it is not unhandled (and
        // without a folder it is not used at all).
        leadTail.catch(() => undefined)
        const [info, settings, recent, snapshot] = await Promise.all([
          api.getInfo({}),
          api.getSettings({}),
          api.getRecentWorkspaces({}),
          api.getSnapshot({}),
        ])
        set({
          info,
          offline: info.offline,
          settings,
          recentWorkspaces: recent.paths,
          // A demo or offline team reopened after a reload goes straight to the team.
          firstRunDone:
            info.workspace !== null &&
            (settings.apiKeySet || settings.useOfflineModel || info.offline),
        })
        if (snapshot !== null) get().applyEvents([{ type: 'workspace-opened', snapshot }])
        if (snapshot !== null) void get().adoptTranscript(LEAD, leadTail)
        set({ phase: { kind: 'ready' } })
      } catch (error) {
        set({ phase: { kind: 'failed', message: describeFailure(error).message } })
      }
    }

    function branchesChanged(): void {
      set((state) => ({ branchesVersion: state.branchesVersion + 1 }))
    }

    async function resync(): Promise<void> {
      try {
        const snapshot = await api.getSnapshot({})
        if (snapshot !== null) get().applyEvents([{ type: 'workspace-opened', snapshot }])
      } catch (error) {
        get().reportFailure('Could not read the team again after reconnecting', error)
      }
    }

    return {
      ...initialTeamData,
      ...initialUiState,
      ...initialSearchState,
      ...initialTimelineState,
      ...core,
      ...commands,
      ...createProjectCommands(api),
      ...createScheduleCommands(api),
      ...queries,
      ...search,
      ...createTimelineActions(api, set, get),
      ...createReviewCommands(api, branchesChanged),
      ...createUndoCommands(api, branchesChanged),
    }
  })
}
