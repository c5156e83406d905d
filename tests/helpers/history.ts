import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { TeamPaths } from '../../src/runtime/team/paths'
import type { TranscriptRecord } from '../../src/shared/transcript'

/** A fixed start for generated transcripts (seconds): 2026-01-01T00:00Z. */
export const HISTORY_START = Date.UTC(2026, 0, 1) / 1000

/**
 * `count` transcript records of `agent`, one a minute from HISTORY_START, in cycles of three (a
 * task from the lead, a model turn calling read_file, its result); `needles` puts a text of its
 * own into the record with that seq.
 */
export function generatedTranscript(
  count: number,
  needles: Readonly<Record<number, string>> = {},
): TranscriptRecord[] {
  const records: TranscriptRecord[] = []
  for (let seq = 1; seq <= count; seq++) {
    const base = { v: 1 as const, seq, at: HISTORY_START + seq * 60 }
    const extra = needles[seq] === undefined ? '' : ` ${needles[seq]}`
    const cycle = Math.floor((seq - 1) / 3)
    switch ((seq - 1) % 3) {
      case 0:
        records.push({
          ...base,
          kind: 'user',
          from: 'lead',
          text: `Task ${cycle}: check the parser of module ${cycle}.${extra}`,
        })
        break
      case 1:
        records.push({
          ...base,
          kind: 'assistant',
          message_id: `msg_${seq}`,
          model: 'offline',
          content: [
            { type: 'text', text: `Reading module ${cycle} first.${extra}` },
            {
              type: 'tool_use',
              id: `toolu_${cycle}`,
              name: 'read_file',
              input: { path: `src/m${cycle}.ts` },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        })
        break
      default:
        records.push({
          ...base,
          kind: 'tool-result',
          tool_use_id: `toolu_${cycle}`,
          name: 'read_file',
          content: `export const value${cycle} = ${cycle}${extra}`,
          is_error: false,
        })
    }
  }
  return records
}

export function writeTranscriptFile(
  paths: TeamPaths,
  name: string,
  records: readonly TranscriptRecord[],
): void {
  mkdirSync(dirname(paths.transcript(name)), { recursive: true })
  writeFileSync(
    paths.transcript(name),
    records.map((record) => `${JSON.stringify(record)}\n`).join(''),
  )
}
