import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { TranscriptRecord } from '../../../shared/transcript'
import { formatInbox } from '../../agents/conversation'
import { readRegularTextSync } from '../../fs/safe-open'

/**
 * How mail and the person's turns reach a Claude Code session, exactly once. The transcript is
 * the truth: every user-side record after the last one the session is known to hold is handed
 * over, as one text that ends with a mark of the last record it carries. The session's own log
 * then shows whether a hand-over made it in, which is what a restart after a crash asks.
 */
const MARK = /\(team delivery #(\d{1,12})\)/g

/** The records the session has not been handed: the person's turns and mail, in order. */
export function undelivered(
  records: readonly TranscriptRecord[],
  through: number,
): TranscriptRecord[] {
  const found: TranscriptRecord[] = []
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]
    if (record === undefined || record.seq <= through) break
    if (record.kind === 'user' || record.kind === 'inbox') found.push(record)
  }
  return found.reverse()
}

/** The text a hand-over sends: each record as the built-in engine shows it, then the mark. */
export function deliveryText(records: readonly TranscriptRecord[], through: number): string {
  const parts = records.flatMap((record) => {
    if (record.kind === 'user') return [record.text]
    if (record.kind === 'inbox') return [formatInbox(record.messages)]
    return []
  })
  return `${parts.join('\n\n')}\n\n(team delivery #${through})`
}

/** A session log larger than this is not searched (the record's position stands). */
const MAX_LOG_BYTES = 256 * 1024 * 1024

/**
 * The last record a session's log shows it was handed, or 0. The log is the sandboxed
 * process's file, so it is only ever a reason to hand over less mail to that same session:
 * read without following links, size-bounded, and never past the transcript's end (`upTo`).
 */
export function deliveredThrough(configFolder: string, sessionId: string, upTo: number): number {
  const projects = join(configFolder, 'projects')
  let folders: string[]
  try {
    folders = readdirSync(projects)
  } catch {
    return 0
  }
  let best = 0
  for (const folder of folders) {
    const log = join(projects, folder, `${sessionId}.jsonl`)
    try {
      if (statSync(log).size > MAX_LOG_BYTES) continue
    } catch {
      continue
    }
    let text: string | null
    try {
      text = readRegularTextSync(log, {
        what: 'A Claude Code session log',
        maxBytes: MAX_LOG_BYTES,
      })
    } catch {
      continue // a link or a folder in its place: not a log to believe
    }
    if (text === null) continue
    for (const match of text.matchAll(MARK)) {
      const seq = Number(match[1])
      if (seq <= upTo && seq > best) best = seq
    }
  }
  return best
}
