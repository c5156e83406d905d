// Writes a team straight into `.team/`: the roster and long, valid transcripts (the records the
// runtime itself writes: user, assistant, tool-result), so a benchmark can open a team with
// 10,000 entries without running 10,000 turns.
import { mkdirSync, writeFileSync } from 'node:fs'
import { TeamPaths } from '../../src/runtime/team/paths'
import { transcriptRecordSchema, type TranscriptRecord } from '../../src/shared/transcript'

export interface MemberSpec {
  readonly name: string
  readonly role: string
  readonly status: 'idle' | 'working' | 'shutdown'
}

export function writeRoster(workspace: string, members: readonly MemberSpec[]): void {
  const paths = new TeamPaths(workspace)
  mkdirSync(paths.root, { recursive: true })
  const now = Date.now() / 1000
  writeFileSync(
    paths.config,
    `${JSON.stringify(
      {
        team_name: 'bench',
        members: members.map((member) => ({ ...member, created_at: now })),
      },
      null,
      2,
    )}\n`,
  )
}

const PARAGRAPH =
  'The consumer reads from the committed cursor, records the batch in the transcript and fsyncs it, and only then moves the cursor, so a crash in between redelivers and the ids keep repeats out.'
const CODE = [
  'export function scan(text: string): string[] {',
  '  const lines: string[] = []',
  '  for (const line of text.split("\\n")) {',
  '    if (line.trim().length === 0) continue',
  '    lines.push(line)',
  '  }',
  '  return lines',
  '}',
].join('\n')

/**
 * `count` records in cycles of four (a task, a model turn with text and a tool call, its
 * result, a final answer); the last record is a final answer that ends with `marker`.
 */
export function longTranscript(count: number, marker: string): TranscriptRecord[] {
  const records: TranscriptRecord[] = []
  const start = Date.now() / 1000 - count
  for (let seq = 1; seq <= count; seq++) {
    const cycle = Math.floor((seq - 1) / 4)
    const at = start + seq
    const base = { v: 1 as const, seq, at }
    const callId = `toolu_bench_${cycle}`
    const last = seq === count
    switch ((seq - 1) % 4) {
      case 0:
        records.push(
          last
            ? finalAnswer(base, cycle, marker)
            : {
                ...base,
                kind: 'user',
                from: 'lead',
                text: `Task ${cycle}: read src/scan-${cycle}.ts and tell me whether blank lines are skipped; then summarise.`,
              },
        )
        break
      case 1:
        records.push(
          last
            ? finalAnswer(base, cycle, marker)
            : {
                ...base,
                kind: 'assistant',
                message_id: `msg_bench_${cycle}_a`,
                model: 'offline',
                content: [
                  {
                    type: 'text',
                    text: `Reading **src/scan-${cycle}.ts** first.\n\n- ${PARAGRAPH}\n- Then the tests.`,
                  },
                  {
                    type: 'tool_use',
                    id: callId,
                    name: 'read_file',
                    input: { path: `src/scan-${cycle}.ts` },
                  },
                ],
                stop_reason: 'tool_use',
                usage: { input_tokens: 900 + cycle, output_tokens: 80 },
              },
        )
        break
      case 2:
        records.push(
          last
            ? finalAnswer(base, cycle, marker)
            : {
                ...base,
                kind: 'tool-result',
                tool_use_id: callId,
                name: 'read_file',
                content: `${CODE}\n// cycle ${cycle}`,
                is_error: false,
              },
        )
        break
      default:
        records.push(finalAnswer(base, cycle, last ? marker : ''))
    }
  }
  // A record that would not parse would be skipped by the runtime and measure nothing.
  for (const record of records.slice(0, 8)) transcriptRecordSchema.parse(record)
  return records
}

function finalAnswer(
  base: { v: 1; seq: number; at: number },
  cycle: number,
  marker: string,
): TranscriptRecord {
  return {
    ...base,
    kind: 'assistant',
    message_id: `msg_bench_${cycle}_b_${base.seq}`,
    model: 'offline',
    content: [
      {
        type: 'text',
        text: `Blank lines are skipped (\`line.trim().length === 0\`). ${PARAGRAPH} ${marker}`.trim(),
      },
    ],
    stop_reason: 'end_turn',
    usage: { input_tokens: 1400 + cycle, output_tokens: 120 },
  }
}

export function writeTranscript(
  workspace: string,
  name: string,
  records: readonly TranscriptRecord[],
): void {
  const paths = new TeamPaths(workspace)
  mkdirSync(new TeamPaths(workspace).transcript(name).replace(/\/[^/]+$/, ''), { recursive: true })
  writeFileSync(
    paths.transcript(name),
    records.map((record) => `${JSON.stringify(record)}\n`).join(''),
  )
}
