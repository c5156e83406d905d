import { z } from 'zod'
import { mailMessageSchema } from './messages'
import { positionSchema } from './position'

/** The version of a transcript record this build writes and the newest it reads. */
export const TRANSCRIPT_FORMAT_VERSION = 1

export const textBlockSchema = z.object({ type: z.literal('text'), text: z.string() })
export const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
})
export type TextBlock = z.infer<typeof textBlockSchema>
export type ToolUseBlock = z.infer<typeof toolUseBlockSchema>
/** What a model turn holds. Block types this app does not render are kept as they came. */
export const assistantBlockSchema = z.union([
  textBlockSchema,
  toolUseBlockSchema,
  z.looseObject({ type: z.string() }),
])
export type AssistantBlock = TextBlock | ToolUseBlock | { type: string; [key: string]: unknown }

/**
 * Tokens of one model call (or a total), as the Messages API reports them: `input_tokens` is the
 * prompt's uncached rest, the cache fields its parts written to and read from the prompt cache.
 * Records written before prompt caching have no cache fields.
 */
export const usageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_creation_input_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
})
export type Usage = z.infer<typeof usageSchema>

/** A mail message as a transcript records it: the recipient is the transcript's agent. */
export const injectedMessageSchema = mailMessageSchema.omit({ to: true })
export type InjectedMessage = z.infer<typeof injectedMessageSchema>

const base = {
  v: z.literal(TRANSCRIPT_FORMAT_VERSION),
  seq: z.number().int().min(1),
  at: z.number(),
}

/**
 * One line of `.team/transcripts/<name>.jsonl`. Every record is appended as it happens; the
 * API conversation is derived from them (`conversation.ts`), never stored twice.
 */
export const transcriptRecordSchema = z.discriminatedUnion('kind', [
  /** A turn from the person (the lead's chat) or a spawn prompt (a teammate's task). */
  z.object({ ...base, kind: z.literal('user'), from: z.string(), text: z.string() }),
  /** Messages taken from the inbox and shown to the model, with where the batch ended. */
  z.object({
    ...base,
    kind: z.literal('inbox'),
    messages: z.array(injectedMessageSchema),
    end: positionSchema,
  }),
  z.object({
    ...base,
    kind: z.literal('assistant'),
    message_id: z.string(),
    model: z.string(),
    content: z.array(assistantBlockSchema),
    /** The API's, or `interrupted`: stopped by the person while it streamed (text kept). */
    stop_reason: z.string().nullable(),
    usage: usageSchema,
    /** The output tokens are an estimate: the turn was stopped before the API counted them. */
    usage_estimated: z.boolean().optional(),
    /**
     * The last record its request held, when records were appended while the call was in
     * flight (the person's chat): those come after this turn in what the model sees. Absent,
     * the request held every record before it (and in transcripts written before this field).
     */
    seen_through_seq: z.number().int().min(0).optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('tool-result'),
    tool_use_id: z.string(),
    name: z.string(),
    content: z.string(),
    is_error: z.boolean(),
    /** read_inbox consumes mail: the batch's end, as for an inbox record. */
    inbox_end: positionSchema.optional(),
    inbox_ids: z.array(z.string()).optional(),
    /** The result was too large for the context window: `content` is its first part and a note. */
    cut: z.object({ shown: z.number().int().min(0), total: z.number().int().min(0) }).optional(),
    /** Images the tool returned with its text (MCP tools), base64; sent back as image blocks. */
    images: z
      .array(
        z.object({
          media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
          data: z.string(),
        }),
      )
      .optional(),
  }),
  /**
   * A lifecycle mark: an activation ended, the round cap was hit, an error stopped a turn.
   * `cause` is the status's cause as data (roster.ts's StatusCause: `budget` for a budget pause,
   * `round-cap`, `stopped`…), written when it has one; records written before it have none.
   */
  z.object({
    ...base,
    kind: z.literal('status'),
    status: z.string(),
    reason: z.string(),
    cause: z.string().max(64).optional(),
  }),
  /**
   * An undo of this agent's work (`agent-teams undo`, the window's Undo): its folder went back to
   * checkpoint `checkpoint`, and the records `from_seq`…`to_seq` (the turns undone) are shown as
   * "undone"; they stay in the transcript, so the history stays true. A redo is an undo too
   * (back to the checkpoint taken before undo `redo_of`): from it on, `redo_of`'s records are no
   * longer undone, and the redo's own range is. `undoneSeqs` (shared/undo.ts) folds them.
   */
  z.object({
    ...base,
    kind: z.literal('undo'),
    undo_id: z.string(),
    from_seq: z.number().int().min(1),
    to_seq: z.number().int().min(0),
    /** The checkpoint's seq (`agent-teams checkpoints <name>`). */
    checkpoint: z.number().int().min(1),
    /** The undo this one takes back (a redo), absent otherwise. */
    redo_of: z.string().optional(),
    /** The files restored, and the ones left as they are (someone else changed them). */
    restored: z.array(z.string()),
    kept: z.array(z.string()),
    /** Where the agent's branch was reset to, or null when it was not. */
    reset_to: z.string().nullable(),
    /** Who asked for it (the person). */
    by: z.string(),
  }),
  /**
   * The conversation was compacted: the records up to `through_seq` were summarized, and from
   * here the model sees `identity`, `summary`, then the records after `through_seq` verbatim.
   * Written in one append once the summary is complete; the records summarized stay as they are.
   */
  z.object({
    ...base,
    kind: z.literal('compaction'),
    through_seq: z.number().int().min(0),
    /** Who the agent is, its task, open protocol requests and unanswered mail, as shown. */
    identity: z.string(),
    summary: z.string(),
    /** What set it off: the threshold before a call, or the endpoint's "prompt is too long". */
    trigger: z.string(),
    /** The prompt's tokens before and after, and the window they were held to. */
    tokens_before: z.number().int().min(0),
    tokens_after: z.number().int().min(0),
    window: z.number().int().min(1),
    /** The summarizing model call's own model and tokens. */
    model: z.string(),
    usage: usageSchema,
  }),
])
export type TranscriptRecord = z.infer<typeof transcriptRecordSchema>
export type TranscriptRecordKind = TranscriptRecord['kind']
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
/** A record before the store stamps it with its version, sequence number and time. */
export type NewTranscriptRecord = DistributiveOmit<TranscriptRecord, 'v' | 'seq' | 'at'>
