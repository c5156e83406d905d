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

export type AgentKind = 'lead' | 'teammate'

/** What paused an agent: what lifts the pause is the matching fix (a budget, a key, a resume). */
export type PauseCause = Extract<StatusCause, 'budget' | 'auth' | 'loop'>

export interface AgentOptions {
  readonly name: string
  readonly kind: AgentKind
  readonly paths: TeamPaths
  readonly mailbox: Mailbox
  readonly clock: Clock
  readonly tools: readonly Tool[]
  /**
   * Where its file tools and bash work (its own worktree); default: the workspace. Asked before
   * each tool call, once the git work queued for the agent (its turn's mark) is done.
   */
  readonly toolRoot?: () => Promise<string>
  /** Tools that come and go (MCP servers' tools), asked for at every model call. */
  readonly moreTools?: () => readonly Tool[]
  /** Awaited before every model call: MCP servers still starting finish first (bounded). */
  readonly beforeTurn?: (signal: AbortSignal) => Promise<void>
  /** The model client to use for the next turn (settings may change between turns). */
  readonly model: () => ModelClient
  readonly modelId?: () => string | undefined
  /** Its extended-thinking budget for the next turn; off when undefined. */
  readonly thinkingBudget?: () => number | undefined
  readonly system: () => string
  readonly roundCap: number
  readonly turnPolicy?: TurnPolicy
  readonly emit: (event: TeamEvent) => void
  /** `facts`: what the status means as data (why it waits, the failure's code); none: nothing. */
  readonly setStatus: (status: MemberStatus, reason: string, facts?: Partial<StatusFacts>) => void
  /** Why a delivered message must be refused (the protocols), or null to take it. */
  readonly judge?: (message: MailMessage) => string | null
  /** Told of messages taken into the transcript (protocol requests act on this). */
  readonly onMessages?: (messages: readonly MailMessage[]) => void
  /** Why the next model call may not happen (a budget, the team's key refused), or null. */
  readonly pauseReason?: () => { cause: PauseCause; reason: string } | null
  /** Why mutating tools are refused right now (a plan not yet approved), or null. */
  readonly planGate?: () => string | null
  /** Its permission profile and approvals (default: every tool, no approvals). */
  readonly toolPolicy?: ToolPolicy
  /** Whether a call left without a result still waits in the Needs-you queue. */
  readonly stillWaiting?: (call: ToolUseBlock) => boolean
  /** The endpoint refused the key: reported once for the whole team by the host. */
  readonly onAuthFailure?: (message: string) => void
  /**
   * Whether every append to this agent's inbox is reported through `noteMail` (in-process sends
   * and a watcher of `.team/`); then the inbox is polled only after one. Default false: every
   * model call polls.
   */
  readonly mailSignalled?: boolean
  /** The agent's role and team, for the identity block a compaction shows (default: none known). */
  readonly identity?: () => { role: string; team: string }
  /** Open protocol requests this agent is part of, one line each, for the identity block. */
  readonly openRequests?: () => readonly string[]
  /** The `contextWindow` setting, for models the built-in table does not know. */
  readonly contextWindow?: () => number | undefined
  readonly compaction?: CompactionPolicy
}

/** How one activation ended: the typed step the agent and the host act on. */
export type ActivationEnd =
  | { readonly kind: 'idle' }
  | { readonly kind: 'round-cap'; readonly rounds: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'paused'; readonly cause: PauseCause; readonly reason: string }
  | { readonly kind: 'shutdown'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string; readonly code: string }
