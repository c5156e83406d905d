import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { TranscriptRecord } from '../../../shared/transcript'
import { formatInbox } from '../../agents/conversation'
import { readRegularTextSync } from '../../fs/safe-open'

/**
 * How mail and the person's turns reach a Claude Code session, exactly once. The transcript is
 * the truth: every user-side record after the last one the session is known to hold is handed
 * over, as one text that ends with a mark: the seq of the last record it carries and a random
 * nonce, both kept in the app's record (which no sandbox can read) before it is sent. After a
 * crash, the session's own log holding that exact mark says the session took it; a mark a
 * teammate writes into mail or a file cannot be the one the app chose.
 */

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

/** A hand-over's mark: the last record it carries and a nonce of the app's. */
export function deliveryMark(through: number, nonce: string): string {
  return `(team delivery #${through}.${nonce})`
}

/** The text a hand-over sends: each record as the built-in engine shows it, then its mark. */
export function deliveryText(records: readonly TranscriptRecord[], mark: string): string {
  const parts = records.flatMap((record) => {
    if (record.kind === 'user') return [record.text]
    if (record.kind === 'inbox') return [formatInbox(record.messages)]
    return []
  })
  return `${parts.join('\n\n')}\n\n${mark}`
}

/** A session log larger than this is not searched (the record's position stands). */
const MAX_LOG_BYTES = 256 * 1024 * 1024

/**
 * Whether a session's log holds `mark`. The log is the sandboxed process's file, read without
 * following links and size-bounded; what it says can only make the app hand that same session
 * less, and only the hand-over whose nonce it names.
 */
export function logHolds(configFolder: string, sessionId: string, mark: string): boolean {
  const projects = join(configFolder, 'projects')
  let folders: string[]
  try {
    folders = readdirSync(projects)
  } catch {
    return false
  }
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
    if (text !== null && text.includes(mark)) return true
  }
  return false
}
