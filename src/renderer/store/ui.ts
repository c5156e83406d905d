import type { MemberStatus } from '../../shared/roster'
import { LEAD } from '../../shared/names'
import type { UndoTarget } from '../../shared/undo'

/** What the main area shows for the selected agent, or the whole team. */
export type MainView =
  'conversation' | 'inbox' | 'changes' | 'activity' | 'board' | 'needs-you' | 'timeline'

/** Views of the whole team (activity panes, task board, queue, timeline), not of one agent. */
export function isTeamView(view: MainView): boolean {
  return view === 'activity' || view === 'board' || view === 'needs-you' || view === 'timeline'
}

/** What the spawn dialog opens with (a re-spawn keeps the name and offers the old role). */
export interface SpawnPrefill {
  readonly name: string
  readonly role: string
  readonly model: string | null
  readonly thinking: number | null
}

export type DialogState =
  | { readonly kind: 'spawn'; readonly prefill: SpawnPrefill | null }
  | { readonly kind: 'settings' }
  | { readonly kind: 'help' }
  | { readonly kind: 'open-workspace' }
  /** An agent's budget, or the team's (name null). */
  | { readonly kind: 'budget'; readonly name: string | null }
  /** An agent's model and thinking (the lead's too). */
  | { readonly kind: 'model'; readonly name: string }
  /** An agent's permission profile and approval mode; saves a custom profile too. */
  | { readonly kind: 'profile'; readonly name: string }
  /** Confirms a shutdown request before it goes out. */
  | { readonly kind: 'shutdown'; readonly name: string }
  /** The instruction files an agent is given, and the team note's editor. */
  | { readonly kind: 'instructions'; readonly name: string }
  /** Team templates: save the team, apply, edit, delete, export, import. */
  | { readonly kind: 'templates' }
  /** Scheduled runs: their next and last runs; add, remove, run now, turn on and off. */
  | { readonly kind: 'schedules' }
  /** Search across every transcript and inbox of the team (Ctrl+Shift+F). */
  | { readonly kind: 'search' }
  /** Takes a teammate off the team, asking what becomes of an unmerged branch. */
  | { readonly kind: 'remove'; readonly name: string }
  /** The team's MCP servers: their state, tools and stderr; add and remove. */
  | { readonly kind: 'mcp' }
  /** The trust question, opened again after "Not now": what the workspace grants. */
  | { readonly kind: 'trust' }
  /** An undo of what an agent did: its plan shown first, then the undo and its redo. */
  | { readonly kind: 'undo'; readonly name: string; readonly target: UndoTarget }

export type BootPhase =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly message: string }

/**
 * How the transport feels (browser mode's WebSocket can drop and come back). `expired`: the
 * server refuses the page's token (it was restarted): only its new address works.
 */
export type ConnectionStatus = 'connected' | 'reconnecting' | 'disconnected' | 'expired'

export interface UiState {
  readonly phase: BootPhase
  readonly connection: ConnectionStatus
  /** The person left the first-run screen (opened a folder, started the demo, continued). */
  readonly firstRunDone: boolean
  readonly recentWorkspaces: readonly string[]
  /** The folder startDemo opened in this session: it runs on the offline model whatever the settings. */
  readonly demoWorkspace: string | null
  readonly selected: string
  readonly view: MainView
  /** View > Toggle roster: the team column is hidden to give the conversation the width. */
  readonly rosterHidden: boolean
  readonly dialog: DialogState | null
  /** Tool cards the person opened or closed, by tool-use id (absent: the card's default). */
  readonly expandedTools: Readonly<Record<string, boolean>>
  /**
   * A task's detail asked for its owner's changes on that task: the Changes view of `name` opens
   * scoped to `task` (a new object at each request, so asking again re-applies it).
   */
  readonly changesTask: { readonly name: string; readonly task: string } | null
  /** Bumped to ask the visible composer to take focus (Ctrl+K)… */
  readonly composerFocusRequest: number
  /** …and the request a composer last answered, so that a composer mounted later does not. */
  readonly composerFocusHandled: number
}

export const initialUiState: UiState = {
  phase: { kind: 'connecting' },
  connection: 'connected',
  firstRunDone: false,
  recentWorkspaces: [],
  demoWorkspace: null,
  selected: LEAD,
  view: 'conversation',
  rosterHidden: false,
  dialog: null,
  expandedTools: {},
  changesTask: null,
  composerFocusRequest: 0,
  composerFocusHandled: 0,
}

/** Whether a member may be spawned again under its name (the runtime refuses a working one). */
export function canRespawn(status: MemberStatus): boolean {
  return status === 'idle' || status === 'shutdown' || status === 'error'
}
