import type { SCHEDULE_COMMAND_NAMES } from '../shared/ipc-channels'
import type { TeamHost } from '../runtime/host/host'
import {
  addSchedule,
  removeSchedule,
  scheduleFromInput,
  setScheduleEnabled,
} from '../runtime/schedules/schedule-file'
import { scheduleListing, stateFromFiles } from '../runtime/schedules/schedule-views'
import type { HandlersFor } from './handler-context'

/**
 * The schedules' commands over the open team (AppService's handlers). The person's changes
 * keep a trusted workspace trusted, and the running scheduler reads them at once.
 */
export function scheduleHandlers(
  requireHost: () => TeamHost,
  nowSeconds: () => number,
): HandlersFor<(typeof SCHEDULE_COMMAND_NAMES)[number]> {
  const change = <T>(host: TeamHost, write: () => T): T => {
    const result = host.trust.keep(write)
    host.schedules?.reload()
    return result
  }
  return {
    listSchedules: async () => {
      const host = requireHost()
      return (
        host.schedules?.listing() ??
        scheduleListing(
          stateFromFiles(host.team.paths, nowSeconds(), false),
          host.trust.isTrusted(),
        )
      )
    },
    addSchedule: async (input) => {
      const host = requireHost()
      const schedule = scheduleFromInput(input, nowSeconds())
      return { schedule: change(host, () => addSchedule(host.team.paths, schedule)) }
    },
    removeSchedule: async ({ name }) => {
      const host = requireHost()
      change(host, () => removeSchedule(host.team.paths, name))
      return {}
    },
    runScheduleNow: async ({ name }) => ({ outcome: requireHost().runScheduleNow(name) }),
    setScheduleEnabled: async ({ name, enabled }) => {
      const host = requireHost()
      return {
        schedule: change(host, () =>
          setScheduleEnabled(host.team.paths, name, enabled, nowSeconds()),
        ),
      }
    },
  }
}
