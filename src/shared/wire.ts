import { z } from 'zod'
import { commandErrorSchema, hostEventSchema } from './contract'
import { commandNames } from './ipc-channels'

/**
 * Browser mode's WebSocket frames: the contract, carried as JSON text frames.
 * Client → server: a request. Server → client: its response, or a batch of events.
 * The page is served at `http://127.0.0.1:PORT/?token=T`; the socket is `/ws?token=T`.
 */
export const requestFrameSchema = z
  .object({
    kind: z.literal('request'),
    id: z.number().int().min(0),
    command: z.enum(commandNames),
    params: z.unknown(),
  })
  .strict()
export type RequestFrame = z.infer<typeof requestFrameSchema>

export const responseFrameSchema = z.union([
  z.object({
    kind: z.literal('response'),
    id: z.number().int(),
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.object({
    kind: z.literal('response'),
    id: z.number().int(),
    ok: z.literal(false),
    error: commandErrorSchema,
  }),
])
export type ResponseFrame = z.infer<typeof responseFrameSchema>

export const eventsFrameSchema = z.object({
  kind: z.literal('events'),
  events: z.array(hostEventSchema),
})
export type EventsFrame = z.infer<typeof eventsFrameSchema>

export const serverFrameSchema = z.union([responseFrameSchema, eventsFrameSchema])
export type ServerFrame = z.infer<typeof serverFrameSchema>

/** The largest frame either side accepts (a chat message, a transcript page). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024
/** How often buffered events are flushed to a client: about one animation frame. */
export const EVENT_BATCH_MS = 16
