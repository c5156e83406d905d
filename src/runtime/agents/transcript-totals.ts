import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { addModelUsage, modelUsageSchema, type ModelUsage } from '../../shared/cost'
import { usageSchema, type TranscriptRecord, type Usage } from '../../shared/transcript'
import { NO_USAGE, addUsage } from '../../shared/usage'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { Position } from '../mailbox/position'
import { isLineBoundary, linesBackward, parseLine } from './transcript-lines'
import { positionSchema } from '../../shared/position'

/** How many delivered message ids the totals keep: the consumer refuses repeats of these. */
export const RECENT_IDS = 5000

/**
 * `.team/transcripts/<name>.totals.json`: what an agent's whole transcript adds up to, up to
 * byte `bytes` (the record `last_seq` ends there), so that opening a team reads only the end of
 * each transcript. A cache: when it is missing, unreadable or does not match the transcript, the
 * transcript is read whole once and the file written again.
 */
const totalsFileSchema = z.object({
  v: z.literal(1),
  bytes: z.number().int().min(0),
  last_seq: z.number().int().min(0),
  rounds: z.number().int().min(0),
  usage: usageSchema,
  by_model: modelUsageSchema,
  inbox_end: positionSchema.nullable(),
  recent_ids: z.array(z.string()).max(RECENT_IDS),
})

/** The totals a transcript adds up to, kept up to date as records are appended. */
export interface TranscriptTotals {
  /** Model calls (turns and summaries). */
  rounds: number
  usage: Usage
  byModel: ModelUsage
  /** The furthest inbox position a record holds: what the agent has durably consumed. */
  inboxEnd: Position | null
  /** Ids of the messages most recently delivered, newest last. */
  recentIds: string[]
}

export function emptyTotals(): TranscriptTotals {
  return { rounds: 0, usage: NO_USAGE, byModel: [], inboxEnd: null, recentIds: [] }
}

/** Adds one record to the totals, as a full read of the transcript would count it. */
export function addRecord(totals: TranscriptTotals, record: TranscriptRecord): void {
  if (record.kind === 'assistant' || record.kind === 'compaction') {
    // A summarizing call is a model call too, and its tokens are the agent's.
    totals.rounds++
    totals.usage = addUsage(totals.usage, record.usage)
    totals.byModel = addModelUsage(totals.byModel, record.model, record.usage)
  } else if (record.kind === 'inbox') {
    totals.inboxEnd = record.end
    for (const message of record.messages) totals.recentIds.push(message.id)
  } else if (record.kind === 'tool-result') {
    if (record.inbox_end) totals.inboxEnd = record.inbox_end
    if (record.inbox_ids) totals.recentIds.push(...record.inbox_ids)
  }
  // Trimmed now and then rather than on every id.
  if (totals.recentIds.length > 2 * RECENT_IDS)
    totals.recentIds.splice(0, totals.recentIds.length - RECENT_IDS)
}

export function totalsPathOf(transcriptPath: string): string {
  return join(dirname(transcriptPath), `${basename(transcriptPath, '.jsonl')}.totals.json`)
}

/**
 * The saved totals, if they match the transcript open on `fd` (of `size` bytes): the byte they
 * cover is a line boundary within the file and the record ending there has their last seq.
 * Anything else (no file, a hand edit, a transcript replaced or cut short) gives null.
 */
export function readSavedTotals(
  path: string,
  fd: number,
  size: number,
): { totals: TranscriptTotals; bytes: number } | null {
  let text: string | null
  try {
    text = readRegularTextSync(path, { what: 'The transcript totals', maxBytes: FILE_CAPS.record })
  } catch {
    return null
  }
  if (text === null) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = totalsFileSchema.safeParse(value)
  if (!parsed.success) return null
  const saved = parsed.data
  if (saved.bytes > size || !isLineBoundary(fd, saved.bytes)) return null
  if (saved.bytes > 0) {
    const last = linesBackward(fd, saved.bytes).next()
    const record = last.done ? undefined : parseLine(last.value.text.toString('utf8')).record
    if (record?.seq !== saved.last_seq) return null
  } else if (saved.last_seq !== 0) return null
  return {
    bytes: saved.bytes,
    totals: {
      rounds: saved.rounds,
      usage: saved.usage,
      byModel: saved.by_model,
      inboxEnd: saved.inbox_end,
      recentIds: saved.recent_ids,
    },
  }
}

/**
 * Writes the totals as of byte `bytes`. No fsync: the file is a cache checked against the
 * transcript on every open, so a lost or stale one costs a longer read, never a wrong count.
 */
export function saveTotals(
  path: string,
  totals: TranscriptTotals,
  covered: { bytes: number; lastSeq: number },
): void {
  const file: z.infer<typeof totalsFileSchema> = {
    v: 1,
    bytes: covered.bytes,
    last_seq: covered.lastSeq,
    rounds: totals.rounds,
    usage: totals.usage,
    by_model: totals.byModel,
    inbox_end: totals.inboxEnd,
    recent_ids: totals.recentIds.slice(-RECENT_IDS),
  }
  writeFileAtomicSync(path, `${JSON.stringify(file)}\n`, { durable: false })
}
