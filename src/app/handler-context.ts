import type { CommandName, Params, Result } from '../shared/contract'
import type { TeamHost } from '../runtime/host/host'

/** The handlers of some of the contract's commands, each parsing nothing: AppService does. */
export type HandlersFor<C extends CommandName> = {
  [N in C]: (params: Params<N>) => Promise<Result<N>>
}

/** What a feature's handlers need from the app service for the open team. */
export interface TeamHandlerContext {
  /** The open team's host; throws when there is none. */
  readonly host: () => TeamHost
  /** The name when it is the lead or on the roster; throws a clear error otherwise. */
  readonly knownAgent: (name: string) => string
  /**
   * Refuses a command that may call the model when there is none to call (no key, no offline
   * model). It changes nothing: the endpoint is built when the folder opens or the settings
   * change, never by the command that uses it.
   */
  readonly assertModelSet: () => void
}
