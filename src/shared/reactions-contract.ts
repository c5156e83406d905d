import { z } from 'zod'
import { reactionsChangeSchema, reactionsViewSchema } from './reactions'

const empty = z.object({}).strict()

/**
 * The reactions' commands in the contract (`contract.ts` spreads them into `commands`): the
 * team's settings with their counts and each teammate's last check, and the person's change.
 */
export const reactionCommands = {
  getReactions: { params: empty, result: reactionsViewSchema },
  /** What the change leaves out stays; a `.team/reactions.json` that cannot be used is refused. */
  setReactions: { params: reactionsChangeSchema, result: reactionsViewSchema },
}
