import { z } from 'zod'
import {
  scheduleInputSchema,
  scheduleListingSchema,
  scheduleNameSchema,
  scheduleSchema,
} from './schedules'

const name = z.object({ name: scheduleNameSchema }).strict()

/**
 * The schedules' commands in the contract (`contract.ts` spreads them into `commands`): the
 * person's scheduled runs of the open team, as `agent-teams schedule` has them.
 */
export const scheduleCommands = {
  /** Every schedule with its next run, its last run's outcome and its state; the file's problem. */
  listSchedules: { params: z.object({}).strict(), result: scheduleListingSchema },
  addSchedule: { params: scheduleInputSchema, result: z.object({ schedule: scheduleSchema }) },
  removeSchedule: { params: name, result: z.object({}).strict() },
  /** Starts a run now; another run working, it waits or is skipped as the schedule says. */
  runScheduleNow: {
    params: name,
    result: z.object({ outcome: z.enum(['started', 'waiting', 'skipped']) }),
  },
  setScheduleEnabled: {
    params: z.object({ name: scheduleNameSchema, enabled: z.boolean() }).strict(),
    result: z.object({ schedule: scheduleSchema }),
  },
}
