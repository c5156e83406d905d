import type { AgentTeamsApi, Params, Result } from '../../shared/contract'
import { UNDO_COMMAND_NAMES } from '../../shared/ipc-channels'

type UndoCommandName = (typeof UNDO_COMMAND_NAMES)[number]

/**
 * Undo's commands (the undo dialog, its entry points, the checkpoint policy in Settings): each
 * one is the contract's command as is, and rejects with the host's error for the caller to show.
 */
export type UndoCommands = {
  readonly [N in UndoCommandName]: (params: Params<N>) => Promise<Result<N>>
}

/** The commands that may move a branch (an undo resets it to a checkpoint's, a redo back). */
const BRANCH_CHANGING: ReadonlySet<UndoCommandName> = new Set(['applyUndo', 'redoUndo'])

/**
 * `branchesChanged` runs after an undo or a redo, so that the roster's branch lines and the
 * Changes view ask again even when no status or task changed.
 */
export function createUndoCommands(api: AgentTeamsApi, branchesChanged: () => void): UndoCommands {
  return Object.fromEntries(
    UNDO_COMMAND_NAMES.map((name) => [
      name,
      async (params: never) => {
        const result = await (api[name] as (params: never) => Promise<unknown>)(params)
        if (BRANCH_CHANGING.has(name)) branchesChanged()
        return result
      },
    ]),
  ) as UndoCommands
}
