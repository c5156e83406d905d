import type { Params, Result } from '../shared/contract'
import type { TIMELINE_COMMAND_NAMES } from '../shared/ipc-channels'
import type { PriceOverrides } from '../shared/prices'
import type { TeamHost } from '../runtime/host/host'
import { awayDigest, FIRST_DIGEST_SECONDS } from '../runtime/timeline/away-digest'
import { readTimeline, type TimelineFiles } from '../runtime/timeline/read-timeline'
import { TimelineSeenStore } from '../runtime/timeline/seen-store'

type TimelineCommand = (typeof TIMELINE_COMMAND_NAMES)[number]

type Handlers = {
  [N in TimelineCommand]: (params: Params<N>) => Promise<Result<N>>
}

export interface TimelineHandlerContext {
  /** The open team's host; throws when there is none. */
  readonly host: () => TeamHost
  /** The person's prices (settings). */
  readonly prices: () => PriceOverrides
  /** The user's config folder: where the app records when the person last looked. */
  readonly configDirectory: string
  readonly nowSeconds: () => number
}

/**
 * The timeline's commands over the open team (AppService's handlers). The timeline is read from
 * the team's files as the runtime keeps them (a running team writes every record at once), and
 * "while you were away" starts at the app's own record of the person's last look.
 */
export function timelineHandlers(context: TimelineHandlerContext): Handlers {
  const seen = new TimelineSeenStore(context.configDirectory)
  const files = (): { files: TimelineFiles; workspace: string } => {
    const host = context.host()
    return {
      workspace: host.team.paths.workspace,
      files: {
        paths: host.team.paths,
        prices: context.prices(),
        worktrees: () => host.worktrees.git,
      },
    }
  }
  return {
    getTimeline: async (query) => readTimeline(files().files, query),
    getAwayDigest: async ({ since }) => {
      const open = files()
      const until = context.nowSeconds()
      const lastLook = seen.lastSeen(open.workspace) ?? null
      const from = since ?? lastLook ?? Math.max(0, until - FIRST_DIGEST_SECONDS)
      return { ...(await awayDigest(open.files, { since: from, until })), lastLook }
    },
    markTimelineSeen: async ({ at }) => {
      seen.markSeen(files().workspace, at)
      return {}
    },
  }
}
