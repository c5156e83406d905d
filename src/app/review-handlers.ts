import type { Params, Result } from '../shared/contract'
import { TeamError } from '../shared/errors'
import type { REVIEW_COMMAND_NAMES } from '../shared/ipc-channels'
import type { TeamHost } from '../runtime/host/host'

type ReviewCommand = (typeof REVIEW_COMMAND_NAMES)[number]

type Handlers = {
  [N in ReviewCommand]: (params: Params<N>) => Promise<Result<N>>
}

/** The worktree and review commands over the open team's host (AppService's handlers). */
export function reviewHandlers(requireHost: () => TeamHost): Handlers {
  return {
    getWorktrees: async () => {
      const host = requireHost()
      const worktrees = host.worktrees
      return {
        available: await worktrees.git.available(),
        defaultOn: worktrees.defaultOn,
        teammates: [...(await worktrees.views())].map(([name, view]) => {
          const check = host.reactions.checkOf(name)
          return { name, ...view, ...(check === null ? {} : { check }) }
        }),
      }
    },
    setWorktreeDefault: async ({ on }) => {
      requireHost().worktrees.setDefault(on)
      return {}
    },
    getReviewDiff: async ({ name, scope, task, from, to }) => {
      if (scope === 'range' && (from === undefined || to === undefined))
        throw new TeamError('invalid-argument', 'A range needs both a from and a to commit.')
      const range = from !== undefined && to !== undefined ? { from, to } : undefined
      return requireHost().worktrees.diff(name, scope, range, task)
    },
    mergeTeammate: async ({ name, squash, into, confirm }) =>
      requireHost().worktrees.merge(name, { squash, into, confirm }),
    handBackConflict: async ({ name, into, files }) => {
      requireHost().worktrees.handBack(name, into, files)
      return {}
    },
    rejectChanges: async ({ name, reason }) => {
      requireHost().worktrees.reject(name, reason)
      return {}
    },
    commentOnLine: async ({ name, file, line, text }) => {
      requireHost().worktrees.comment(name, { file, line, text })
      return {}
    },
    removeTeammate: async ({ name, branch }) => ({
      summary: await requireHost().removeTeammate(name, branch),
    }),
  }
}
