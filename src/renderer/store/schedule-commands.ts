import type { AgentTeamsApi, Params, Result } from '../../shared/contract'

/** The window's calls for scheduled runs: plain calls, whose answers the Schedules dialog shows. */
export interface ScheduleCommands {
  listSchedules(): Promise<Result<'listSchedules'>>
  addSchedule(input: Params<'addSchedule'>): Promise<Result<'addSchedule'>>
  removeSchedule(name: string): Promise<void>
  runScheduleNow(name: string): Promise<Result<'runScheduleNow'>>
  setScheduleEnabled(name: string, enabled: boolean): Promise<Result<'setScheduleEnabled'>>
}

export function createScheduleCommands(api: AgentTeamsApi): ScheduleCommands {
  return {
    listSchedules: () => api.listSchedules({}),
    addSchedule: (input) => api.addSchedule(input),
    async removeSchedule(name) {
      await api.removeSchedule({ name })
    },
    runScheduleNow: (name) => api.runScheduleNow({ name }),
    setScheduleEnabled: (name, enabled) => api.setScheduleEnabled({ name, enabled }),
  }
}
