import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SUMMARY_SYSTEM_PROMPT } from '../../src/runtime/agents/compaction-text'
import { text, type ModelRequest, type Turn } from '../../src/offline-model/script'
import type { RecordedRequest } from '../../src/offline-model/offline-server'

/** Whether a request the offline server got is a compaction's summarizing call. */
export function isSummaryRequest(request: ModelRequest): boolean {
  return JSON.stringify(request.system ?? '').includes(SUMMARY_SYSTEM_PROMPT.slice(0, 60))
}

/** Lines `FACT: …` the request carries anywhere (tool results, summaries, the identity block). */
export function factsIn(request: ModelRequest): string[] {
  const found = JSON.stringify(request.messages).match(/FACT: [A-Za-z0-9 -]+/g) ?? []
  return [...new Set(found)]
}

/**
 * What the scripted summarizer answers: a fixed sentence and every FACT line of its input, so a
 * fact survives a compaction only if the summarizer was shown it.
 */
export function scriptedSummary(request: ModelRequest): Turn {
  return text(`You have been reading parts of the corpus. ${factsIn(request).join('. ')}`)
}

/** Whether the server refused the request as longer than its context window. */
export function refusedAsTooLong(request: RecordedRequest): boolean {
  return 'error' in request.reply && /prompt is too long/.test(request.reply.error)
}

/**
 * Writes `parts/part-0.txt` … `part-<count-1>.txt` (each `size` characters, all different) and
 * `parts/fact.txt`, holding `fact` once, into the workspace.
 */
export function writeParts(workspace: string, count: number, size: number, fact: string): void {
  const folder = join(workspace, 'parts')
  mkdirSync(folder, { recursive: true })
  for (let index = 0; index < count; index++) {
    const line = `part ${index}: the quick brown fox jumps over the lazy dog.\n`
    writeFileSync(
      join(folder, `part-${index}.txt`),
      line.repeat(Math.ceil(size / line.length)).slice(0, size),
    )
  }
  writeFileSync(join(folder, 'fact.txt'), `${fact}\n`)
}
