import type { Params, Result } from '../shared/contract'
import { TeamError } from '../shared/errors'
import type { TIMELINE_COMMAND_NAMES } from '../shared/ipc-channels'
import type { TeamHost } from '../runtime/host/host'

type TimelineCommand = (typeof TIMELINE_COMMAND_NAMES)[number]

type Handlers = {
  [N in TimelineCommand]: (params: Params<N>) => Promise<Result<N>>
}

/** The timeline's commands over the open team's host (AppService's handlers). */
export function timelineHandlers(requireHost: () => TeamHost): Handlers {
  const unbuilt = async (): Promise<never> => {
    requireHost()
    throw new TeamError('io', 'The timeline is not built yet.')
  }
  return { getTimeline: unbuilt, getAwayDigest: unbuilt, markTimelineSeen: unbuilt }
}
