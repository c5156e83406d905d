import { closeSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs'
import type { Position } from '../../../src/runtime/mailbox/position'

/**
 * The stress consumer's durable record: message lines, then a marker with the inbox position
 * the batch ends at, written in one append and fsynced. A batch without its marker (a crash in
 * the middle of the write) does not count and is cut off on the next start.
 */
export interface JournalState {
  readonly recordedUpTo?: Position
  readonly ids: string[]
}

export function loadJournal(path: string): JournalState {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return { ids: [] }
  }
  const ids: string[] = []
  let pending: string[] = []
  let recordedUpTo: Position | undefined
  let goodBytes = 0
  let at = 0
  for (;;) {
    const newline = text.indexOf('\n', at)
    if (newline === -1) break
    const record = JSON.parse(text.slice(at, newline)) as { id?: string; end?: Position }
    at = newline + 1
    if (record.end) {
      ids.push(...pending)
      pending = []
      recordedUpTo = record.end
      goodBytes = Buffer.byteLength(text.slice(0, at))
    } else if (record.id) {
      pending.push(record.id)
    }
  }
  if (goodBytes !== Buffer.byteLength(text)) truncateSync(path, goodBytes)
  return { recordedUpTo, ids }
}

export function appendBatch(path: string, lines: readonly string[], end: Position): void {
  const fd = openSync(path, 'a')
  try {
    writeSync(fd, `${[...lines, JSON.stringify({ end })].join('\n')}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
