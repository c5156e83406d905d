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

export function createReviewCommands(api: AgentTeamsApi): ReviewCommands {
  return Object.fromEntries(
    REVIEW_COMMAND_NAMES.map((name) => [
      name,
      (params: never) => (api[name] as (params: never) => Promise<unknown>)(params),
    ]),
  ) as ReviewCommands
}
