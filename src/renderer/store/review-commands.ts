import type { AgentTeamsApi, Params, Result } from '../../shared/contract'
import { REVIEW_COMMAND_NAMES } from '../../shared/ipc-channels'

type ReviewCommandName = (typeof REVIEW_COMMAND_NAMES)[number]

/**
 * The worktree and review commands (the Changes view, the roster's branch line, Remove): each
 * one is the contract's command as is, and rejects with the host's error for the caller to show.
 */
export type ReviewCommands = {
  readonly [N in ReviewCommandName]: (params: Params<N>) => Promise<Result<N>>
}

/** The commands after which a branch may hold other changes than before. */
const BRANCH_CHANGING: ReadonlySet<ReviewCommandName> = new Set([
  'mergeTeammate',
  'handBackConflict',
  'removeTeammate',
])

/**
 * `branchesChanged` runs after each command that moves a branch (a merge, a conflict handed back,
 * a removal), so that the roster's branch lines ask again even when no status or task changed.
 */
export function createReviewCommands(
  api: AgentTeamsApi,
  branchesChanged: () => void,
): ReviewCommands {
  return Object.fromEntries(
    REVIEW_COMMAND_NAMES.map((name) => [
      name,
      async (params: never) => {
        const result = await (api[name] as (params: never) => Promise<unknown>)(params)
        if (BRANCH_CHANGING.has(name)) branchesChanged()
        return result
      },
    ]),
  ) as ReviewCommands
}
