import type { ReactionsView } from '../../shared/reactions'
import type { McpState } from '../../shared/mcp'
import type { TrustView } from '../../shared/trust'
import type {
  AgentView,
  AppInfo,
  HostEvent,
  InboxEntryView,
  SettingsView,
  TeamSnapshot,
} from '../../shared/contract'
import type { TeamEventOf } from '../../shared/events'
import type { NeedsYouEntry } from '../../shared/needs-you'
import type { Position } from '../../shared/position'
import type { ApprovalMode } from '../../shared/profiles'
import { engineOf, type EngineName } from '../../shared/engine'
import type { TranscriptRecord } from '../../shared/transcript'
import { NO_BUDGET, type Budget } from '../../shared/budget'
import type { TaskBoardView } from '../../shared/tasks'

export type { Position }

export type LoadStatus = 'loading' | 'ready' | 'failed'

/** The last error an agent's loop ended with, shown on the agent until it works again. */
export type AgentFailure = Readonly<Pick<TeamEventOf<'agent-error'>, 'code' | 'message'>>

/**
 * One agent as the window shows it: the contract's view (declared once, in contract.ts) plus
 * what events tell us. `profile` and `approval` are null where the host did not say; the view's
 * `errorCode` is the code of `failure`; `engine` is always said (builtin where it is absent).
 */
export interface AgentState extends Readonly<
  Omit<AgentView, 'profile' | 'approval' | 'errorCode' | 'engine'>
> {
  /** The last error its loop ended with, until it works again. */
  readonly failure: AgentFailure | null
  readonly profile: string | null
  readonly approval: ApprovalMode | null
  readonly engine: EngineName
}

/** A token, a round and a dollar limit; null lifts a limit. */
export type { Budget }

export const noBudget: Budget = NO_BUDGET

/** A tool call seen on the stream: its input streams in, then it runs, then it finishes. */
export interface LiveTool {
  readonly id: string
  readonly name: string
  /** The input JSON as streamed so far (may be incomplete). */
  readonly input: string
  readonly phase: 'input' | 'running' | 'finished'
  readonly output: string | null
  readonly isError: boolean
}

/** What an agent is doing right now, before (and a little after) it lands in the transcript. */
export interface LiveState {
  /** Text streamed since the last recorded assistant turn. */
  readonly text: string
  /** The most recent tool calls, oldest first (a few are kept for the activity panes). */
  readonly tools: readonly LiveTool[]
  /** The text of the last recorded assistant turn (shown when nothing streams). */
  readonly lastText: string
}

/** A loaded tail of a transcript: records[0] may be later than seq 1 (older pages load on demand). */
export interface TranscriptState {
  readonly records: readonly TranscriptRecord[]
  readonly total: number
  readonly status: LoadStatus
  readonly error: string | null
  readonly loadingOlder: boolean
}

export interface InboxState {
  readonly entries: readonly InboxEntryView[]
  /** Where the next page starts; null when everything up to the end is loaded. */
  readonly next: Position | null
  readonly status: LoadStatus
  readonly error: string | null
  /** The file changed since the entries were read: refetch when the view is open. */
  readonly stale: boolean
  readonly loadingMore: boolean
}

export type NoticeTone = 'error' | 'warning' | 'info'

/** A dismissible banner: a failed command, a rejected mailbox line, an event that did not parse. */
export interface Notice {
  readonly id: number
  readonly tone: NoticeTone
  readonly title: string
  /** The latest message of its group. */
  readonly message: string
  /** Notices of one group (e.g. rejected lines of one inbox) fold into one, with a count. */
  readonly group?: string
  /** How many notices this one stands for (1 unless grouped). */
  readonly count?: number
}

export type RosterProblem = TeamSnapshot['rosterProblem']

/** A problem for the whole team (the endpoint refused the key), until the host clears it. */
export type TeamAlert = Readonly<NonNullable<TeamSnapshot['alert']>>

/** A shutdown or plan-approval handshake between two agents (the s10 protocols). */
export type ProtocolRequest = Extract<HostEvent, { type: 'protocol-changed' }>['request']

/**
 * The person's answer to a plan. The request settles only when the teammate reads the answer,
 * so until then the card says what was sent instead of asking again; then it shows the outcome.
 */
export interface SentReview {
  readonly approve: boolean
}

/** Everything the events and the queries tell us; folded by the pure reducer. */
export interface TeamData {
  readonly info: AppInfo | null
  readonly settings: SettingsView | null
  readonly workspace: string | null
  readonly teamName: string
  /** Every agent by name, the lead included. */
  readonly agents: Readonly<Record<string, AgentState>>
  /** The lead first, then the teammates in roster order. */
  readonly order: readonly string[]
  readonly rosterProblem: RosterProblem
  /** One alert for the whole team (a refused key), however many agents ran into it. */
  readonly alert: TeamAlert | null
  /** Whether the team runs on the built-in offline model (a demo, or chosen in Settings). */
  readonly offline: boolean
  /** The model of every agent without one of its own. */
  readonly defaultModel: string | null
  readonly teamBudget: Budget
  /** Protocol handshakes by request id, in the order they were made. */
  readonly protocols: Readonly<Record<string, ProtocolRequest>>
  /** Plan answers the person sent, by request id, until they dismiss the outcome. */
  readonly sentReviews: Readonly<Record<string, SentReview>>
  readonly live: Readonly<Record<string, LiveState>>
  readonly transcripts: Readonly<Record<string, TranscriptState>>
  readonly inboxes: Readonly<Record<string, InboxState>>
  /** The task board as the last `tasks-changed` (or the snapshot) gave it. */
  readonly tasks: TaskBoardView
  readonly notices: readonly Notice[]
  readonly nextNoticeId: number
  /** The team's MCP servers: state, tools, stderr tail; null when no team is open. */
  readonly mcp: McpState | null
  /** Whether the person trusts what the workspace grants, and what; null when no team is open. */
  readonly trust: TrustView | null
  /** The Needs-you queue's entries by id, pending and recently settled. */
  readonly needsYou: Readonly<Record<string, NeedsYouEntry>>
  /**
   * Bumped when git's branches moved (`branches-changed`, from a commit or merge by anyone) and
   * after this window merged, handed back or removed a branch: the branch lines ask again.
   */
  readonly branchesVersion: number
  /** The team's reactions (settings, counts, each teammate's last check); null until asked. */
  readonly reactions: ReactionsView | null
  /** Bumped by every event that means new records: the Timeline view reads the timeline again. */
  readonly timelineVersion: number
}

export const emptyLive: LiveState = { text: '', tools: [], lastText: '' }

export const initialTeamData: TeamData = {
  info: null,
  settings: null,
  workspace: null,
  teamName: '',
  agents: {},
  order: [],
  rosterProblem: null,
  alert: null,
  offline: false,
  defaultModel: null,
  teamBudget: noBudget,
  protocols: {},
  sentReviews: {},
  live: {},
  transcripts: {},
  inboxes: {},
  tasks: { tasks: [], problems: [] },
  notices: [],
  nextNoticeId: 1,
  mcp: null,
  trust: null,
  needsYou: {},
  branchesVersion: 0,
  reactions: null,
  timelineVersion: 0,
}

export function agentFromView(view: AgentView): AgentState {
  return {
    name: view.name,
    role: view.role,
    status: view.status,
    statusReason: view.statusReason,
    statusCause: view.statusCause,
    running: view.running,
    usage: view.usage,
    usageByModel: view.usageByModel,
    model: view.model,
    thinking: view.thinking,
    pending: view.pending,
    rounds: view.rounds,
    budget: view.budget,
    failure:
      view.status === 'error' && view.statusReason !== null
        ? { code: view.errorCode ?? 'error', message: view.statusReason }
        : null,
    profile: view.profile ?? null,
    approval: view.approval ?? null,
    engine: engineOf(view),
  }
}
