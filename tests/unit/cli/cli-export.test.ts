import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { cli } from '../../helpers/cli'
import { HISTORY_START, writeTranscriptFile } from '../../helpers/history'
import { tempTeam } from '../../helpers/workspace'

/** What export wrote before it streamed (made with that version): the output must not change. */
const FIXTURES = join(import.meta.dirname, '../../fixtures/export')

/** A record of every kind, and every kind of assistant block, one a minute. */
function everyKind(): TranscriptRecord[] {
  const at = (seq: number) => ({ v: 1 as const, seq, at: HISTORY_START + seq * 60 })
  const usage = { input_tokens: 10, output_tokens: 5 }
  return [
    { ...at(1), kind: 'user', from: 'lead', text: 'Write the parser.\n\nThen test it.' },
    {
      ...at(2),
      kind: 'inbox',
      messages: [
        {
          id: 'm-1',
          type: 'message',
          from: 'bob',
          content: 'Use ``` fences\n\nand quotes',
          timestamp: HISTORY_START,
          extra: {},
        },
        {
          id: 'm-2',
          type: 'shutdown_request',
          from: 'lead',
          content: 'Stop soon.',
          timestamp: HISTORY_START + 1,
          extra: { request_id: 'r-1' },
        },
      ],
      end: { segment: 1, offset: 300 },
    },
    {
      ...at(3),
      kind: 'assistant',
      message_id: 'msg_3',
      model: 'offline',
      content: [
        { type: 'thinking', thinking: 'First the grammar.\n\nThen the code.', signature: 's' },
        { type: 'redacted_thinking', data: 'xyz' },
        { type: 'text', text: 'Reading **src/parse.ts**.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/parse.ts' } },
        { type: 'server_tool_use', id: 'srv_1' },
      ],
      stop_reason: 'tool_use',
      usage,
    },
    {
      ...at(4),
      kind: 'tool-result',
      tool_use_id: 'toolu_1',
      name: 'read_file',
      content: 'const fence = "````"\nexport {}',
      is_error: false,
    },
    {
      ...at(5),
      kind: 'tool-result',
      tool_use_id: 'toolu_2',
      name: 'bash',
      content: 'exit 1',
      is_error: true,
    },
    {
      ...at(6),
      kind: 'assistant',
      message_id: 'msg_6',
      model: 'offline',
      content: [{ type: 'text', text: 'Half a sen' }],
      stop_reason: 'interrupted',
      usage,
      usage_estimated: true,
    },
    { ...at(7), kind: 'status', status: 'idle', reason: 'stopped by the person' },
    {
      ...at(8),
      kind: 'compaction',
      through_seq: 6,
      identity: 'You are alice.',
      summary: 'alice wrote the parser.\n\nTests fail.',
      trigger: 'threshold',
      tokens_before: 9000,
      tokens_after: 800,
      window: 10_000,
      model: 'offline',
      usage,
    },
  ]
}

/** alice's transcript (with a blank line, a damaged line and a torn tail) and bob's inbox. */
function goldenTeam() {
  const team = tempTeam(['alice', 'bob'])
  team.roster.update((draft) => {
    draft.team_name = 'golden team'
  })
  writeTranscriptFile(team.paths, 'alice', everyKind())
  appendFileSync(team.paths.transcript('alice'), '\n{"not a record"\n{"v":1,"seq":9')
  team.mailbox.send({ from: 'alice', to: 'bob', content: 'Delivered first.' })
  return team
}

const CASES = [
  { file: 'alice.md', args: ['--agent', 'alice', '--format', 'md'] },
  { file: 'alice.jsonl', args: ['--agent', 'alice', '--format', 'jsonl'] },
  { file: 'team.md', args: ['--format', 'md'] },
  { file: 'team.jsonl', args: ['--format', 'jsonl'] },
  { file: 'bob.md', args: ['--agent', 'bob', '--format', 'md'] },
] as const

describe('agent-teams export, byte for byte', () => {
  it('writes what it always wrote, for every record kind, to stdout and to a file', async () => {
    const team = goldenTeam()
    const consumer = team.consumer('bob')
    consumer.commit(await consumer.poll())
    team.mailbox.send({ from: 'lead', to: 'bob', content: 'Still pending,\n\nover two lines.' })
    appendFileSync(team.paths.inbox('bob'), '{"type":"message","from":"lead"}\n')
    for (const { file, args } of CASES) {
      const printed = await cli(['export', ...args, '--workspace', team.dir])
      expect(printed.code, file).toBe(0)
      const expected = readFileSync(join(FIXTURES, file), 'utf8')
      expect(printed.stdout, file).toBe(expected)
      if (file.startsWith('alice') || file.startsWith('team'))
        expect(printed.stderr, file).toMatch(/alice\.jsonl line 10: not valid JSON \(skipped\)/)
      const out = join(team.dir, `out-${file}`)
      const written = await cli(['export', ...args, '--out', out, '--workspace', team.dir])
      expect(written.code, file).toBe(0)
      expect(written.stdout).toBe('')
      expect(readFileSync(out, 'utf8'), file).toBe(expected)
    }
  })
})
