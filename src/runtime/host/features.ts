import type { Disposable } from '../../shared/disposable'
import { branchesChangedEvent } from '../../shared/events'
import { UNTRUSTED_NOTE } from '../../shared/trust'
import type { TeamAgent } from '../agents/team-agent'
import { randomIds, systemClock } from '../system/clock'
import type { HostOptions } from './options'
import { appDataFolder, workspaceDataFolder } from '../fs/app-folders'
import { McpServers } from '../mcp/servers'
import { teamQueue } from '../needs-you/mirror'
import { sandboxQueueHooks } from '../needs-you/sandbox-queue'
import type { NeedsYou, NeedsYouActions } from '../needs-you/queue'
import { ProfileStore } from '../permissions/profile-store'
import { Protocols } from '../protocols/service'
import { ProtocolStore } from '../protocols/store'
import { GitRefWatcher } from '../git/ref-watcher'
import { completeReviewedOnMerge } from '../tasks/review-merge'
import { TaskAutomation, TASK_BOARD_SENDER, autoClaimOf } from '../tasks/task-automation'
import { TeamTasks } from '../tasks/team-tasks'
import type { Team } from '../team/team'
import { TeamBudgets } from '../budgets/team-budgets'
import { readTeamSandbox } from '../sandbox/team-hosts'
import { TeamWorktrees, type TeamWorktreesDependencies } from '../git/team-worktrees'
import { TeamCheckpoints } from '../undo/team-checkpoints'
import type { BashSandboxHooks } from '../tools/basic-tools'
import type { WorkspaceTrust } from '../trust/workspace-trust'
import type { TeamReactions } from '../reactions/team-reactions'
import { createTeamReactions } from '../reactions/team-reactions-factory'
import { teamBashSandbox } from './team-bash-sandbox'

/**
 * The team's features beside its agents: worktrees and review, the s10 protocols, MCP servers,
 * permission profiles, the Needs-you queue, budgets and the task board. Each is its own object;
 * this is where they are made and wired to one another, so the host only holds them.
 */
export interface HostFeatures {
  readonly worktrees: TeamWorktrees
  /** Every agent's checkpoints, before each model turn (undo). */
  readonly checkpoints: TeamCheckpoints
  readonly protocols: Protocols
  readonly mcp: McpServers
  readonly profiles: ProfileStore
  readonly needsYou: NeedsYou
  readonly budgets: TeamBudgets
  readonly tasks: TeamTasks
  readonly taskAutomation: TaskAutomation
  /** A merged branch completes its owner's tasks in review: ended when the host closes. */
  readonly reviewMerges: Disposable
  /** Git's refs in the workspace's repository; null when it is not one, or nothing is watched. */
  readonly gitRefs: Promise<GitRefWatcher | null>
  /** Whether the person trusts what the workspace grants; every grant below asks it. */
  readonly trust: WorkspaceTrust
  /** The hosts bash and stdio servers may reach: the team's list, none while untrusted. */
  readonly allowedHosts: () => readonly string[]
  /** Where the sandbox's blocks (bash's and servers') and unsandboxed commands go. */
  readonly sandboxHooks: BashSandboxHooks
  /** Checks after commits, nudges, conflicts to their owners, folded wakes (reactions/). */
  readonly reactions: TeamReactions
}

/** What the features call back on the host: its agents and the person's commands. */
export interface FeatureHooks extends NeedsYouActions {
  readonly agents: () => Iterable<TeamAgent>
  /** The agent if it is loaded (a protocol's shutdown acts only on a loaded one). */
  readonly loadedAgent: (name: string) => TeamAgent | undefined
  /** The agent, loaded if need be (the task board gives it a turn). */
  readonly agent: (name: string) => TeamAgent
  readonly sendToTeammate: TeamWorktreesDependencies['sendToTeammate']
  /** Mail from the person to an agent (the sandbox's notices of what it blocked). */
  readonly sendFromUser: (to: string, content: string) => void
}

export function createFeatures(
  team: Team,
  options: HostOptions,
  hooks: FeatureHooks,
  trust: WorkspaceTrust,
): HostFeatures {
  const clock = options.clock ?? systemClock
  const ids = options.ids ?? randomIds(clock)
  const worktrees = new TeamWorktrees({
    workspace: team.paths.workspace,
    dataFolder: workspaceDataFolder(options.dataFolder ?? appDataFolder(), team.paths.workspace),
    report: options.report ?? reportToStderr,
    roster: () => team.roster.snapshot,
    updateRoster: (change) => team.updateRoster(change),
    sendToTeammate: hooks.sendToTeammate,
  })
  const tasks = new TeamTasks(team)
  const checkpoints = new TeamCheckpoints({
    worktrees,
    dataFolder: workspaceDataFolder(options.dataFolder ?? appDataFolder(), team.paths.workspace),
    taskOf: (name) =>
      tasks.view().tasks.find((task) => task.owner === name && task.status === 'in_progress')?.id ??
      null,
    now: () => clock.now() / 1000,
    report: options.report ?? reportToStderr,
  })
  const protocols = new Protocols({
    team,
    store: ProtocolStore.open(team.paths, clock),
    ids,
    shutDownAfterStep: (name, reason) => hooks.loadedAgent(name)?.shutdownAfterThisStep(reason),
  })
  const needsYou = teamQueue(
    team,
    clock,
    ids,
    {
      reviewPlan: (id, approve, feedback) => hooks.reviewPlan(id, approve, feedback),
      resume: (name) => hooks.resume(name),
    },
    () => trust.isTrusted(),
  )
  const allowedHosts = (): readonly string[] =>
    trust.isTrusted() ? readTeamSandbox(team.paths).allowedHosts : []
  const sandboxHooks =
    options.sandboxHooks ?? sandboxQueueHooks(needsYou, team.paths, hooks.sendFromUser, trust)
  const mcp = new McpServers(
    team.paths,
    options.mcp ?? {},
    trust,
    {
      stdio: {
        workspace: team.paths.workspace,
        teamFolder: team.paths.root,
        allowedHosts,
        unreadable: options.privateFolders,
      },
      onBlocked: (agent, actions) => sandboxHooks.onBlocked?.(agent, actions),
    },
    (state) => team.publish({ type: 'mcp-changed', state }),
  )
  const budgets = new TeamBudgets(team.roster, options.budgets, options.prices, hooks.agents)
  worktrees.taskMarks.seed(tasks.view().tasks)
  const reviewMerges = completeReviewedOnMerge(worktrees, tasks)
  const taskAutomation = new TaskAutomation({
    tasks,
    members: () => team.roster.members,
    // Automation wakes agents: only once the person trusts the workspace.
    autoClaims: (name) => trust.isTrusted() && autoClaimOf(team.roster.find(name)),
    send: (request) => team.send(request),
    publish: (event) => team.publish(event),
    giveTask: (name, text) => hooks.agent(name).addUserTurn(TASK_BOARD_SENDER, text),
  })
  const profiles = ProfileStore.of(team.paths, {
    refusal: () => (trust.isTrusted() ? null : UNTRUSTED_NOTE),
    keep: (change) => trust.keep(change),
  })
  // A merge or commit made by another process moves the branch lines as well as one made here.
  const gitRefs =
    options.watch === false
      ? Promise.resolve(null)
      : GitRefWatcher.start({
          workspace: team.paths.workspace,
          onChange: () => team.publish(branchesChangedEvent()),
        }).catch(() => null)
  const report = options.report ?? reportToStderr
  const reactions = createTeamReactions({
    team,
    worktrees,
    tasks,
    needsYou,
    trusted: () => trust.isTrusted(),
    keep: (change) => trust.keep(change),
    sandbox: teamBashSandbox({
      team,
      worktrees,
      allowedHosts,
      hooks: sandboxHooks,
      unreadable: options.privateFolders,
    }),
    clock,
    ids,
    report,
    tickMs: options.reactionTickMs,
  })
  return {
    worktrees,
    checkpoints,
    protocols,
    mcp,
    profiles,
    needsYou,
    budgets,
    tasks,
    taskAutomation,
    reviewMerges,
    gitRefs,
    trust,
    allowedHosts,
    sandboxHooks,
    reactions,
  }
}

function reportToStderr(error: unknown): void {
  process.stderr.write(
    `agent-teams: git work in the background failed: ${error instanceof Error ? error.message : String(error)}\n`,
  )
}
