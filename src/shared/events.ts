import { z } from 'zod'
import { MESSAGE_TYPES } from './messages'
import { MEMBER_STATUSES } from './roster'

/**
 * The one event vocabulary from the runtime to every observer (UI, CLI, tests): a `type`-tagged
 * union, parsed on arrival, folded by pure reducers.
 */
const positionSchema = z.object({
  segment: z.number().int().min(1),
  offset: z.number().int().min(0),
})

const messageSchema = z.object({
  id: z.string(),
  type: z.enum(MESSAGE_TYPES),
  from: z.string(),
  to: z.string(),
  content: z.string(),
  timestamp: z.number(),
  extra: z.record(z.string(), z.unknown()),
})

const memberSchema = z.looseObject({
  name: z.string(),
  role: z.string(),
  status: z.enum(MEMBER_STATUSES),
})

export const teamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('agent-status-changed'),
    name: z.string(),
    previous: z.enum(MEMBER_STATUSES),
    status: z.enum(MEMBER_STATUSES),
    reason: z.string(),
  }),
  z.object({
    type: z.literal('roster-changed'),
    team_name: z.string(),
    members: z.array(memberSchema),
  }),
  z.object({
    type: z.literal('roster-invalid'),
    message: z.string(),
    file: z.string(),
    line: z.number(),
    column: z.number(),
  }),
  z.object({
    type: z.literal('inbox-changed'),
    name: z.string(),
    change: z.enum(['added', 'appended', 'removed']),
  }),
  z.object({ type: z.literal('message-sent'), message: messageSchema }),
  z.object({
    type: z.literal('message-rejected'),
    inbox: z.string(),
    position: positionSchema,
    reason: z.string(),
  }),
])
export type TeamEvent = z.infer<typeof teamEventSchema>
export type TeamEventType = TeamEvent['type']
