import { DEFAULT_ROUND_CAP, type AgentDependencies } from './agent-factory'
import { systemClock } from '../system/clock'
import type { HostFeatures } from './features'
import type { HostOptions } from './options'
import { ProjectInstructions } from '../instructions/project-instructions'
import { mayUseServer } from '../mcp/agent-servers'
import type { Team } from '../team/team'
import { teamBashSandbox } from './team-bash-sandbox'
import { claudeCodePorts } from '../engines/claude-code/ports'
import { appDataFolder, workspaceDataFolder } from '../fs/app-folders'

/** What an agent calls back on the host (model, choices, pauses, spawns, mail). */
export type AgentHostHooks = Pick<
  AgentDependencies,
  'model' | 'modelChoice' | 'pauseReason' | 'reportAuthFailure' | 'spawn' | 'permission'
>

/**
 * Everything an agent is made of that the host owns, in one place: the team, its features as
 * the agent's tools see them, and the host's policies. `createAgent` builds each agent from it.
 */
export function agentDependenciesFor(
  team: Team,
  options: HostOptions,
  features: HostFeatures,
  hooks: AgentHostHooks,
): AgentDependencies {
  const { worktrees, needsYou, mcp } = features
  const ownRoot = (name: string): string | null => {
    const root = worktrees.promptRoot(name)
    return root === team.paths.workspace ? null : root
  }
  return {
    team,
    tasks: features.tasks.toolOperations(),
    protocols: features.protocols,
    clock: options.clock ?? systemClock,
    roundCap: options.roundCap ?? DEFAULT_ROUND_CAP,
    turnPolicy: options.turnPolicy,
    compaction: options.compaction,
    // Other programs' appends are reported by the watcher only when there is one.
    mailSignalled: options.watch !== false,
    model: hooks.model,
    modelChoice: hooks.modelChoice,
    pauseReason: hooks.pauseReason,
    reportAuthFailure: hooks.reportAuthFailure,
    spawn: hooks.spawn,
    instructions: new ProjectInstructions(team.paths.root),
    // A teammate in its own worktree reads the instruction files of that checkout.
    workingFolder:
      options.workingFolder ??
      ((name) => {
        const root = ownRoot(name)
        return root === null ? {} : { workingFolder: root, workingRoot: root }
      }),
    worktrees,
    checkpoints: features.checkpoints,
    bash: {
      sandbox: teamBashSandbox({
        team,
        worktrees,
        allowedHosts: features.allowedHosts,
        hooks: features.sandboxHooks,
        unreadable: options.privateFolders,
      }),
    },
    mcpTools: (name) => mcp.tools((server) => mayUseServer(team.roster.find(name), server)),
    mcpStarted: (signal) => mcp.whenStarted(signal),
    needsYou,
    permission: hooks.permission,
    // Ask mode lets writes run in a teammate's own worktree; elsewhere they wait.
    ownFolder: ownRoot,
    claudeCode: claudeCodePorts({
      workspace: team.paths.workspace,
      teamFolder: team.paths.root,
      dataFolder: workspaceDataFolder(options.dataFolder ?? appDataFolder(), team.paths.workspace),
      endpoint: () => hooks.model().endpoint,
      worktree: (name) => worktrees.sandboxRecord(name),
      allowedHosts: features.allowedHosts,
      unreadable: options.privateFolders,
      environment: options.claudeCodeEnvironment,
    }),
  }
}
