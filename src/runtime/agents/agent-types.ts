import type { TeamEvent } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import type { MemberStatus, StatusCause, StatusFacts } from '../../shared/roster'
import type { Clock } from '../system/clock'
import type { Mailbox } from '../mailbox/mailbox'
import type { ModelClient } from '../model/client'
import type { TeamPaths } from '../team/paths'
import type { ToolPolicy } from '../permissions/tool-policy'
import type { Tool } from '../tools/types'
import type { ToolUseBlock } from '../../shared/transcript'
import type { CompactionPolicy } from './compaction'
import type { TurnPolicy } from './model-turn'

/** What paused an agent: what lifts the pause is the matching fix (a budget, a key, a resume). */
export type PauseCause = Extract<StatusCause, 'budget' | 'auth' | 'loop'>

/**
 * What an agent is made of, as six ports and a clock, each built once per agent by
 * `host/agent-factory.ts`. The agent reads its parts through them and knows nothing of the host.
 */
export interface AgentOptions {
  readonly identity: AgentIdentity
  readonly model: AgentModel
  readonly mail: AgentMail
  readonly tools: AgentTools
  readonly guard: AgentGuard
  readonly events: AgentEvents
  readonly clock: Clock
}

/** Who the agent is: what its system prompt and a compaction's identity block say. */
export interface AgentIdentity {
  readonly name: string
  /** Its system prompt for the next call (instruction files are read again each time). */
  readonly systemPrompt: () => string
  /** Its role and team, for the identity block a compaction shows. */
  readonly roleAndTeam: () => { role: string; team: string }
  /** Open protocol requests it is part of, one line each, for the identity block. */
  readonly openRequests: () => readonly string[]
}

/** What it calls, and how: asked before every call, since settings may change between turns. */
export interface AgentModel {
  /** The team's model client (the settings may replace it between turns). */
  readonly client: () => ModelClient
  /** The model of its next call: its own choice, else the client's. */
  readonly modelId: () => string
  /** Its extended-thinking budget for the next turn; off when undefined. */
  readonly thinkingBudget: () => number | undefined
  /** The `contextWindow` setting, for models the built-in table does not know. */
  readonly contextWindow: () => number | undefined
  /** Retries, back-off and the stall timeout of its model calls. */
  readonly turnPolicy: TurnPolicy
  readonly compaction: CompactionPolicy
  /** The endpoint refused the key: reported once for the whole team by the host. */
  readonly keyRefused: (message: string) => void
}

/** Its inbox, and the transcript mail is recorded in before the cursor moves. */
export interface AgentMail {
  readonly paths: TeamPaths
  readonly mailbox: Mailbox
  /**
   * Whether every append to its inbox is reported through `noteMail` (in-process sends and a
   * watcher of `.team/`); then the inbox is polled only after one. False: every call polls.
   */
  readonly signalled: boolean
  /** Why a delivered message must be refused (the protocols), or null to take it. */
  readonly judge: (message: MailMessage) => string | null
}

/** Its tools and where they work. */
export interface AgentTools {
  /** Every built-in tool its kind has; its profile decides, call by call, which are offered. */
  readonly builtIn: readonly Tool[]
  /** Tools that come and go (MCP servers' tools), asked for at every model call. */
  readonly more: () => readonly Tool[]
  /** Awaited before every model call: MCP servers still starting finish first (bounded). */
  readonly started: (signal: AbortSignal) => Promise<void>
  /**
   * Where its file tools and bash work (its own worktree, or the workspace). Asked before each
   * tool call, once the git work queued for the agent (its turn's mark) is done.
   */
  readonly root: () => Promise<string>
  /** Whether a call left without a result still waits in the Needs-you queue. */
  readonly stillWaiting: (call: ToolUseBlock) => boolean
  /**
   * Queues a checkpoint of its folder (undo/team-checkpoints.ts): before every model turn (the
   * first of an activation `opensTurn`), and as it goes to rest. Its next tool call waits for it
   * (`root`); the returned promise settles once it is taken (never rejects). Absent: none.
   */
  readonly checkpoint?: (request: {
    kind: 'turn' | 'rest'
    turnSeq: number
    opensTurn?: boolean
    /** Nothing that could change the folder ran since the last one: it is recorded again. */
    repeat?: boolean
  }) => Promise<void>
}

/** What may stop it or refuse its tools. */
export interface AgentGuard {
  /** Model calls per activation before it goes idle. */
  readonly roundCap: number
  /** Why the next model call may not happen (a budget, the team's key refused), or null. */
  readonly pauseReason: () => { cause: PauseCause; reason: string } | null
  /** Why mutating tools are refused right now (a plan not yet approved), or null. */
  readonly planGate: () => string | null
  /** Its permission profile and approvals. */
  readonly toolPolicy: ToolPolicy
}

/** What it tells the team: its events and its status. */
export interface AgentEvents {
  readonly emit: (event: TeamEvent) => void
  /** `facts`: what the status means as data (why it waits, the failure's code); none: nothing. */
  readonly setStatus: (status: MemberStatus, reason: string, facts?: Partial<StatusFacts>) => void
}

/** How one activation ended: the typed step the agent and the host act on. */
export type ActivationEnd =
  | { readonly kind: 'idle' }
  | { readonly kind: 'round-cap'; readonly rounds: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'paused'; readonly cause: PauseCause; readonly reason: string }
  | { readonly kind: 'shutdown'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string; readonly code: string }
