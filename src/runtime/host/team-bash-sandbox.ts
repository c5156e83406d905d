import { LEAD } from '../../shared/names'
import type { TeamWorktrees } from '../git/team-worktrees'
import { agentSandboxPolicy } from '../sandbox/agent-policy'
import type { Team } from '../team/team'
import type { BashSandboxHooks, BashSandboxOptions } from '../tools/basic-tools'

/**
 * The team's sandbox rules for a command run as one of its agents: what the agents' bash runs
 * with, and the check command (reactions) too, so that both are held to the same policy. The
 * folders an agent may write come from the app's record of the worktree it made, never from the
 * worktree's own `.git` file.
 */
export function teamBashSandbox(parts: {
  readonly team: Team
  readonly worktrees: TeamWorktrees
  readonly allowedHosts: () => readonly string[]
  readonly hooks: BashSandboxHooks
  readonly unreadable?: readonly string[]
}): BashSandboxOptions {
  const { team, worktrees } = parts
  return {
    teamFolder: team.paths.root,
    allowedHosts: parts.allowedHosts,
    unreadable: parts.unreadable,
    writableFor: (context) =>
      agentSandboxPolicy({
        workspace: team.paths.workspace,
        teamFolder: team.paths.root,
        root: context.workspace,
        worktree: context.agent === LEAD ? null : worktrees.sandboxRecord(context.agent),
        agent: context.agent,
        allowedHosts: [],
        unreadable: [],
      }),
    hooks: parts.hooks,
  }
}
