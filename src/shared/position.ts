import { z } from 'zod'

/**
 * A place in an inbox: a segment (archived ones first, the live file last) and a byte offset.
 * Declared once: the contract, the events, transcripts, search and the runtime's cursor use it.
 */
export const positionSchema = z.object({
  segment: z.number().int().min(1),
  offset: z.number().int().min(0),
})
export type Position = Readonly<z.infer<typeof positionSchema>>
