import { z } from 'zod'
import { MESSAGE_TYPES } from './messages'
import { NAME_PATTERN } from './names'
import { transcriptRecordSchema } from './transcript'

/**
 * Team history: searching every transcript and inbox of a workspace, and exporting them. The
 * query comes from a window or a command line, so every field is bounded here, once: a search
 * does a bounded amount of work whatever it is sent.
 */

const agentName = z.string().regex(NAME_PATTERN, 'must be an agent name')
/** Seconds since the epoch, as transcripts and mailboxes write them. */
const seconds = z.number().min(0).max(1e11)

export const SEARCH_TEXT_MAX = 500
export const SEARCH_LIMIT_MAX = 500

export const searchQuerySchema = z
  .object({
    /** Words to find (all of them; the last may be the start of a word). Empty: filters only. */
    text: z.string().max(SEARCH_TEXT_MAX),
    /** Only this agent's transcript and inbox. */
    agent: agentName.optional(),
    /** Only what this one said or sent (`user` is the person). */
    sender: agentName.optional(),
    /** Only tool calls and results of this tool. */
    tool: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a tool name')
      .optional(),
    /** Only records at or after this time… */
    since: seconds.optional(),
    /** …and at or before this one. */
    until: seconds.optional(),
    /** At most this many hits in all (the best first); the counts cover every match. */
    limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).optional(),
  })
  .strict()
export type SearchQuery = z.infer<typeof searchQuerySchema>

/** Where a hit is: a transcript record (by `seq`) or an inbox line (by its position). */
export const searchPlaceSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('transcript'), seq: z.number().int().min(1) }),
  z.object({
    source: z.literal('inbox'),
    position: z.object({
      segment: z.number().int().min(1),
      offset: z.number().int().min(0),
    }),
  }),
])
export type SearchPlace = z.infer<typeof searchPlaceSchema>

export const searchHitSchema = z.object({
  agent: z.string(),
  place: searchPlaceSchema,
  /** What the record is: user, inbox, assistant, tool-result, status, compaction, or mail. */
  kind: z.string(),
  sender: z.string(),
  tools: z.array(z.string()),
  at: z.number(),
  /** A piece of the text around the first match, with where each match is in it. */
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
})
export type SearchHit = z.infer<typeof searchHitSchema>

export const searchResultSchema = z.object({
  /** One group per agent with a match, the best group first. */
  groups: z.array(
    z.object({ agent: z.string(), total: z.number().int().min(0), hits: z.array(searchHitSchema) }),
  ),
  /** Every match, including those past the limit. */
  total: z.number().int().min(0),
})
export type SearchResult = z.infer<typeof searchResultSchema>

export const EXPORT_FORMATS = ['md', 'jsonl'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const exportRequestSchema = z
  .object({ agent: agentName.optional(), format: z.enum(EXPORT_FORMATS) })
  .strict()
export type ExportRequest = z.infer<typeof exportRequestSchema>

export const exportResultSchema = z.object({
  /** A file name to save it under (`alice-transcript.md`, `team-history.jsonl`). */
  fileName: z.string(),
  mimeType: z.string(),
  content: z.string(),
})
export type ExportResult = z.infer<typeof exportResultSchema>

/**
 * One line of a team's JSONL export: a transcript record of an agent, or a line of an inbox
 * with its delivery state. An agent's own export is its transcript's lines as they are.
 */
export const historyLineSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('transcript'),
    agent: z.string(),
    record: transcriptRecordSchema,
  }),
  z.object({
    source: z.literal('inbox'),
    agent: z.string(),
    state: z.enum(['pending', 'delivered', 'rejected']),
    position: z.object({ segment: z.number().int(), offset: z.number().int() }),
    message: z
      .looseObject({
        id: z.string(),
        type: z.enum(MESSAGE_TYPES),
        from: z.string(),
        content: z.string(),
        timestamp: z.number(),
      })
      .nullable(),
    reason: z.string().nullable(),
  }),
])
export type HistoryLine = z.infer<typeof historyLineSchema>
