import { z } from 'zod'
import { commandErrorSchema, type HostEvent } from './contract'
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

/**
 * A batch of events. Only the envelope is checked on arrival: each event is parsed once, by the
 * store that folds it (the same parse as the Electron window's).
 */
export const eventsFrameSchema = z.object({
  kind: z.literal('events'),
  events: z.array(z.unknown()),
})
/** A batch as the server sends it: events as the runtime made them. */
export type EventsFrame = Omit<z.infer<typeof eventsFrameSchema>, 'events'> & {
  readonly events: readonly HostEvent[]
}

/** The largest frame the server sends (a transcript page, a batch of events). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024
/**
 * The largest request frame the server reads. The biggest legitimate ones are a chat or spawn
 * text (200,000 characters, at most 1.2 MB even if every one is JSON-escaped) and a message
 * (a mailbox line holds at most 1 MiB): 2 MiB leaves room for both, and keeps what one frame can
 * make the server parse small.
 */
export const MAX_REQUEST_FRAME_BYTES = 2 * 1024 * 1024
/** How often buffered events are flushed to a client: about one animation frame. */
export const EVENT_BATCH_MS = 16
