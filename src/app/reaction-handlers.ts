import type { Params, Result } from '../shared/contract'
import type { REACTION_COMMAND_NAMES } from '../shared/ipc-channels'
import type { TeamHost } from '../runtime/host/host'

type ReactionCommand = (typeof REACTION_COMMAND_NAMES)[number]

type Handlers = {
  [N in ReactionCommand]: (params: Params<N>) => Promise<Result<N>>
}

/** The reactions' commands over the open team's host (AppService's handlers). */
export function reactionHandlers(requireHost: () => TeamHost): Handlers {
  return {
    getReactions: async () => requireHost().reactions.view(),
    // The person's change: a trusted workspace stays trusted (the check command is a grant).
    setReactions: async (change) => requireHost().reactions.set(change),
  }
}
