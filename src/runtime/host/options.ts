import type { Budget } from '../agents/guards'
import type { CompactionPolicy } from '../agents/compaction'
import type { TurnPolicy } from '../agents/model-turn'
import type { EngineAvailability } from '../../shared/engine'
import type { PriceOverrides } from '../../shared/prices'
import type { Clock, IdSource } from '../system/clock'
import type { InstructionScope } from '../instructions/project-instructions'
import type { McpOptions } from '../mcp/servers'
import type { ModelEndpoint } from '../model/client'
import type { BashSandboxHooks } from '../tools/basic-tools'
import type { TrustOptions } from '../trust/workspace-trust'
import type { HostScheduleOptions } from '../schedules/team-schedules'

/** How a `TeamHost` is opened: the workspace, the endpoint and the team's policies. */
export interface HostOptions {
  readonly workspace: string
  readonly endpoint: ModelEndpoint
  readonly clock?: Clock
  readonly ids?: IdSource
  /** Model calls per activation before an agent goes idle (default 50). */
  readonly roundCap?: number
  /** Whether teammates' messages wake the lead by themselves (default true). */
  readonly leadWakesOnMessages?: boolean
  readonly watch?: boolean
  /** Retries, back-off and the stall timeout of model calls. */
  readonly turnPolicy?: TurnPolicy
  /** Budgets that apply where config.json sets none (default: none). */
  readonly budgets?: { agent?: Budget; team?: Budget }
  /** When agents compact their conversations (default: at 75 % of the window). */
  readonly compaction?: CompactionPolicy
  /** The person's prices per model (settings); Claude's list prices apply to the rest. */
  readonly prices?: PriceOverrides
  /** Where each agent works, for its instruction files (default: the workspace). */
  readonly workingFolder?: (name: string) => Omit<InstructionScope, 'workspace'>
  /**
   * Where the "Needs you" queue connects to bash's sandbox: what it blocked, and commands
   * that would run unsandboxed (no sandbox on this machine). Absent: blocks are only told to
   * the model and unsandboxed commands run behind the blocklist.
   */
  readonly sandboxHooks?: BashSandboxHooks
  /** Folders bash may never read, beside the default settings folder: the app's config. */
  readonly privateFolders?: readonly string[]
  /** MCP servers: where `${VAR}` comes from, and their timeouts. */
  readonly mcp?: McpOptions
  /**
   * The app's data folder (fs/app-folders.ts: `$XDG_DATA_HOME/agent-teams`): the teammates'
   * worktrees and the app's records of them. Tests give a folder of their own.
   */
  readonly dataFolder?: string
  /** Environment added to every Claude Code teammate's process (tests). */
  readonly claudeCodeEnvironment?: Readonly<Record<string, string>>
  /** Told of what failed in the background (a git mark of a turn): the log. Default: stderr. */
  readonly report?: (error: unknown) => void
  /**
   * Whether the person trusts what the workspace grants (its MCP servers, allowed hosts,
   * "approve always" rules and custom profiles): where agreements are kept, and
   * `--trust-workspace`. Until it is trusted none of it applies and only the person wakes agents.
   */
  readonly trust: TrustOptions
  /**
   * Whether each engine can run here, asked at every spawn. Default: `engineAvailability()`,
   * which looks Claude Code up; tests give their own ("not installed").
   */
  readonly engineAvailability?: () => readonly EngineAvailability[]
  /**
   * How often the reactions' stall watch looks at the agents, in ms (default 5,000); null: only
   * when `host.reactions.tick()` is called (tests, with their own clock).
   */
  readonly reactionTickMs?: number | null
  /**
   * Scheduled runs (`.team/schedules.json`): given by the processes that stay up with the team,
   * the window's app and `serve`. Absent (`chat`, `team apply`), no schedule runs here.
   */
  readonly schedules?: HostScheduleOptions
}
