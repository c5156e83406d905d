import type { Params, Result } from '../shared/contract'
import { TeamError } from '../shared/errors'
import type { UNDO_COMMAND_NAMES } from '../shared/ipc-channels'
import type { TeamHost } from '../runtime/host/host'

type UndoCommand = (typeof UNDO_COMMAND_NAMES)[number]

type Handlers = {
  [N in UndoCommand]: (params: Params<N>) => Promise<Result<N>>
}

/** Undo's commands over the open team's host (AppService's handlers). */
export function undoHandlers(requireHost: () => TeamHost): Handlers {
  const unbuilt = async (): Promise<never> => {
    requireHost()
    throw new TeamError('io', 'Undo is not built yet.')
  }
  return {
    listCheckpoints: unbuilt,
    setCheckpointPolicy: unbuilt,
    planUndo: unbuilt,
    applyUndo: unbuilt,
    redoUndo: unbuilt,
  }
}
