import type { Params, Result } from '../shared/contract'
import { TeamError } from '../shared/errors'
import type { UNDO_COMMAND_NAMES } from '../shared/ipc-channels'
import { LEAD, USER } from '../shared/names'
import type { TeamHost } from '../runtime/host/host'

type UndoCommand = (typeof UNDO_COMMAND_NAMES)[number]

type Handlers = {
  [N in UndoCommand]: (params: Params<N>) => Promise<Result<N>>
}

/** Undo's commands over the open team's host (AppService's handlers); the person asks them. */
export function undoHandlers(requireHost: () => TeamHost): Handlers {
  const hostFor = (name: string): TeamHost => {
    const host = requireHost()
    if (name !== LEAD && host.team.roster.find(name) === undefined)
      throw new TeamError('unknown-agent', `"${name}" is not on the roster.`)
    return host
  }
  return {
    listCheckpoints: async ({ name }) => {
      const host = hostFor(name)
      const { checkpoints, policy } = host.undo.list(name)
      return {
        checkpoints: checkpoints.map(({ tree: _tree, ...checkpoint }) => checkpoint),
        policy,
        bytes: await host.checkpoints.diskUsage(name),
      }
    },
    setCheckpointPolicy: async (policy) => requireHost().undo.setPolicy(policy),
    planUndo: async ({ name, target }) => hostFor(name).undo.plan(name, target),
    applyUndo: async ({ name, target, planId, overwrite, reason }) =>
      hostFor(name).undo.apply({ name, target, planId, overwrite, reason, by: USER }),
    redoUndo: async ({ name, undoId }) => hostFor(name).undo.redo(name, undoId, USER),
  }
}
