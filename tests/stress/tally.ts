import { readFileSync } from 'node:fs'
import { tagOf } from './workers/content'

export interface Tally {
  readonly delivered: number
  readonly acked: number
  readonly lost: number
  readonly duplicated: number
  readonly corrupt: number
}

function lines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
  } catch {
    return []
  }
}

/**
 * Compares what the consumer recorded (its journal: one JSON object with `content` a line)
 * with what the writers were told was sent (their ack files: one tag a line).
 */
export function tally(journal: string, ackFiles: readonly string[]): Tally {
  const counts = new Map<string, number>()
  let corrupt = 0
  let delivered = 0
  for (const line of lines(journal)) {
    const record = JSON.parse(line) as { content?: string }
    if (record.content === undefined) continue
    delivered++
    const tag = tagOf(record.content)
    if (tag === null) corrupt++
    else counts.set(tag, (counts.get(tag) ?? 0) + 1)
  }
  let acked = 0
  let lost = 0
  for (const file of ackFiles) {
    for (const tag of lines(file)) {
      acked++
      if (!counts.has(tag)) lost++
    }
  }
  let duplicated = 0
  for (const count of counts.values()) if (count > 1) duplicated += count - 1
  return { delivered, acked, lost, duplicated, corrupt }
}
