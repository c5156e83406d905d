import { REACTIONS_SENDER } from '../../shared/names'
import { teammateBranch } from '../../shared/worktree'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { NeedsYou } from '../needs-you/queue'
import type { Clock, IdSource } from '../system/clock'
import type { TeamTasks } from '../tasks/team-tasks'
import type { Team } from '../team/team'
import { refusedCommandReason } from '../tools/bash'
import { runSandboxedCommand, type BashSandboxOptions } from '../tools/bash-tool'
import { ToolFailure } from '../tools/types'
import type { RunCheck } from './check-runs'
import { TeamReactions, teamStatuses } from './team-reactions'

export interface ReactionParts {
  readonly team: Team
  readonly worktrees: TeamWorktrees
  readonly tasks: TeamTasks
  readonly needsYou: NeedsYou
  readonly trusted: () => boolean
  readonly keep: <T>(change: () => T) => T
  /** The rules the agents' bash runs with: the check runs under the same, as its teammate. */
  readonly sandbox: BashSandboxOptions
  readonly clock: Clock
  readonly ids: IdSource
  readonly report: (error: unknown) => void
  /** How often the stall watch looks (null: only when ticked). */
  readonly tickMs?: number | null
}

/** The team's reactions, wired to its parts; a conflicted merge is told to them. */
export function createTeamReactions(parts: ReactionParts): TeamReactions {
  const { team, worktrees } = parts
  const reactions = new TeamReactions({
    paths: team.paths,
    clock: parts.clock,
    ids: parts.ids,
    trusted: parts.trusted,
    keep: parts.keep,
    send: (to, content, extra) => {
      team.send({ from: REACTIONS_SENDER, to, content, extra })
    },
    publish: (event) => team.publish(event),
    statuses: () => teamStatuses(team.leadStatus, team.roster.members),
    tasks: () => parts.tasks.view().tasks,
    needsYou: parts.needsYou,
    teammates: () =>
      team.roster.members.flatMap((member) =>
        member.worktree && worktrees.sandboxRecord(member.name) !== null
          ? [{ name: member.name, baseCommit: member.worktree.base_commit }]
          : [],
      ),
    head: (name) => branchHead(worktrees, team.paths.workspace, name),
    root: (name) => worktrees.toolRoot(name),
    run: sandboxedCheck(parts.sandbox),
    report: parts.report,
    tickMs: parts.tickMs,
  })
  worktrees.onConflict((name, into, files) => reactions.conflicted(name, into, files))
  return reactions
}

/** The commit `team/<name>` points at (the app's hardened git), or null when there is none. */
async function branchHead(
  worktrees: TeamWorktrees,
  workspace: string,
  name: string,
): Promise<string | null> {
  const result = await worktrees.git.git.run(workspace, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `refs/heads/${teammateBranch(name)}^{commit}`,
  ])
  return result.status === 0 ? result.stdout.trim() : null
}

/**
 * The check as bash runs a command of the teammate's: the blocklist first, then inside the OS
 * sandbox with the teammate's own policy (its worktree writable, nothing else of the workspace,
 * `.team/` read-only), or, where there is no sandbox, only once the person approves it.
 */
function sandboxedCheck(sandbox: BashSandboxOptions): RunCheck {
  return async (command, context, options) => {
    const refused = refusedCommandReason(command)
    if (refused !== null) throw new ToolFailure(`refused by the safety guard: ${refused}`)
    return runSandboxedCommand(command, context, { ...options, keepTail: true, sandbox })
  }
}
