import { z } from 'zod'
import { awayDigestSchema, timelineQuerySchema, timelineSchema } from './timeline'

const empty = z.object({}).strict()
/** Seconds since the epoch. */
const seconds = z.number().min(0).max(1e11)

/**
 * The timeline's commands in the contract (`contract.ts` spreads them into `commands`): the
 * team's whole record in order, and what happened while the person was away.
 */
export const timelineCommands = {
  getTimeline: { params: timelineQuerySchema, result: timelineSchema },
  /** What finished, failed, waits and cost since `since` (default: the person's last look). */
  getAwayDigest: {
    params: z.object({ since: seconds.optional() }).strict(),
    result: awayDigestSchema,
  },
  /** The person has looked at the team up to `at`: the next digest starts there. */
  markTimelineSeen: { params: z.object({ at: seconds }).strict(), result: empty },
}
