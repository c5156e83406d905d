import { join } from 'node:path'
import type { z } from 'zod'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../shared/json-limits'
import type { TimelineEntry } from '../../shared/timeline'
import {
  REACTIONS_LOG,
  reactionLineSchema,
  SCHEDULE_RUNS_LOG,
  scheduleRunLineSchema,
  type ReactionLine,
  type ScheduleRunLine,
} from '../../shared/unattended-log'
import { FILE_CAPS, readRegularChunksSync } from '../fs/safe-open'
import { entry, entryId } from './entry-parts'
import { ProblemList } from './problem-list'

type Read = { entries: TimelineEntry[]; problems: string[] }

const NEWLINE = 0x0a

/**
 * The lines of one of the unattended logs (`.team/reactions.jsonl`, `.team/schedule-runs.jsonl`),
 * each checked with its schema: a line that is not JSON or not of the schema is a problem, with
 * its number; a torn last line (no newline yet) waits for the rest. Absent: nothing.
 */
function* logLines<S extends z.ZodType>(
  path: string,
  schema: S,
  problems: ProblemList,
): Generator<z.infer<S>> {
  const chunks = readRegularChunksSync(path, { what: 'The log', maxBytes: FILE_CAPS.log })
  if (chunks === null) return
  const head: Buffer[] = []
  let number = 0
  for (const chunk of chunks) {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start)
      if (newline === -1) break
      const bytes =
        head.length === 0
          ? chunk.subarray(start, newline)
          : Buffer.concat([...head.splice(0), chunk.subarray(start, newline)])
      number++
      start = newline + 1
      const text = bytes.toString('utf8').trim()
      if (text.length === 0) continue
      const parsed = parseLine(text, schema)
      if (typeof parsed === 'string') problems.push(`${path} line ${number}: ${parsed} (skipped)`)
      else yield parsed.value
    }
    if (start < chunk.length) head.push(chunk.subarray(start))
  }
}

function parseLine<S extends z.ZodType>(text: string, schema: S): { value: z.infer<S> } | string {
  if (text.length > 1024 * 1024) return 'over 1 MiB'
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) return `nested deeper than ${MAX_JSON_DEPTH}`
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'not valid JSON'
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return `${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`
  }
  return { value: parsed.data }
}

/** `.team/reactions.jsonl`: a check run is a `check` entry, every other reaction a `reaction`. */
export function reactionEntries(teamRoot: string): Read {
  const file = join(teamRoot, REACTIONS_LOG)
  const problems = moreIn(file)
  const entries: TimelineEntry[] = []
  for (const line of logLines(file, reactionLineSchema, problems) as Iterable<ReactionLine>)
    entries.push(
      entry(
        {
          id: entryId('reaction', line.id),
          at: line.at,
          kind: line.kind === 'check' ? 'check' : 'reaction',
          agent: line.agent,
          summary: line.summary,
          source: { type: 'log', file: REACTIONS_LOG, id: line.id },
        },
        { end: line.end, failed: line.failed, cause: line.kind },
      ),
    )
  return { entries, problems: problems.list() }
}

/** `.team/schedule-runs.jsonl`: each line a `schedule` entry in the app's lane. */
export function scheduleEntries(teamRoot: string): Read {
  const file = join(teamRoot, SCHEDULE_RUNS_LOG)
  const problems = moreIn(file)
  const entries: TimelineEntry[] = []
  for (const line of logLines(file, scheduleRunLineSchema, problems) as Iterable<ScheduleRunLine>)
    entries.push(
      entry(
        {
          id: entryId('schedule', line.id),
          at: line.at,
          kind: 'schedule',
          agent: 'app',
          summary: `schedule ${line.schedule} ${line.event}: ${line.summary}`,
          source: { type: 'log', file: SCHEDULE_RUNS_LOG, id: line.id },
        },
        { failed: line.event === 'capped', cause: line.event },
      ),
    )
  return { entries, problems: problems.list() }
}

function moreIn(file: string): ProblemList {
  return new ProblemList((count) => `${file}: and ${count} more problems (skipped)`)
}
