import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TIMELINE_KINDS } from '../../../src/shared/timeline'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { cli, jsonLines } from '../../helpers/cli'
import { writeTranscriptFile } from '../../helpers/history'
import { tempTeam } from '../../helpers/workspace'

const NOW = Date.now() / 1000
const DAY_AGO = NOW - 25 * 3600
const MINUTES_AGO = NOW - 10 * 60

/** An activation at `at`: woken by the person, one turn calling read_file, its result, idle. */
function activation(from: number, at: number): TranscriptRecord[] {
  return [
    { v: 1, seq: from, at, kind: 'user', from: 'user', text: 'Read the notes.' },
    {
      v: 1,
      seq: from + 1,
      at: at + 1,
      kind: 'assistant',
      message_id: `msg_${from}`,
      model: 'claude-haiku-4-5',
      content: [
        { type: 'tool_use', id: `tu_${from}`, name: 'read_file', input: { path: 'n.txt' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 100, output_tokens: 10 },
    },
    {
      v: 1,
      seq: from + 2,
      at: at + 2,
      kind: 'tool-result',
      tool_use_id: `tu_${from}`,
      name: 'read_file',
      content: 'n.txt does not exist.',
      is_error: true,
    },
    {
      v: 1,
      seq: from + 3,
      at: at + 3,
      kind: 'assistant',
      message_id: `msg_${from + 3}`,
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: 'There are no notes.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 100, output_tokens: 10 },
    },
  ]
}

function team() {
  const made = tempTeam(['alice'], { clock: { now: () => Date.now() } })
  writeTranscriptFile(made.paths, 'alice', [
    ...activation(1, DAY_AGO),
    ...activation(5, MINUTES_AGO),
  ])
  made.mailbox.send({ from: 'alice', to: 'lead', content: 'No notes \x1b[31mhere\x1b[0m.' })
  return made
}

describe('agent-teams timeline', () => {
  it('prints one line per entry, terminal-safe; --json lines carry at, kind, agent, id', async () => {
    const { dir } = team()
    const human = await cli(['timeline', '--workspace', dir])
    expect(human.code).toBe(0)
    expect(human.lines).toHaveLength(11)
    expect(human.stdout).toContain('read_file: n.txt (failed: n.txt does not exist.) [failed]')
    expect(human.stdout).toContain('alice → lead: No notes \\x1b[31mhere\\x1b[0m. [pending]')
    expect(human.stdout).not.toContain('\x1b')

    const json = await cli(['timeline', '--json', '--workspace', dir])
    expect(json.code).toBe(0)
    const lines = jsonLines(json)
    expect(lines).toHaveLength(11)
    for (const line of lines) {
      expect(typeof line.at).toBe('string')
      expect(new Date(line.at as string).toISOString()).toBe(line.at)
      expect(TIMELINE_KINDS).toContain(line.kind)
      expect(typeof line.agent).toBe('string')
      expect(typeof line.id).toBe('string')
    }
    expect(lines.map((line) => line.seconds)).toEqual(
      lines.map((line) => line.seconds).sort((a, b) => Number(a) - Number(b)),
    )
  })

  it('filters by --since (a duration or a date), --agent and --kind', async () => {
    const { dir } = team()
    const recent = jsonLines(await cli(['timeline', '--since', '1h', '--json', '--workspace', dir]))
    expect(recent).toHaveLength(6)
    expect(recent.every((line) => Number(line.seconds) >= MINUTES_AGO)).toBe(true)
    const date = new Date((NOW - 3600) * 1000).toISOString()
    const byDate = jsonLines(await cli(['timeline', '--since', date, '--json', '--workspace', dir]))
    expect(byDate.map((line) => line.id)).toEqual(recent.map((line) => line.id))

    const tools = jsonLines(
      await cli([
        'timeline',
        '--kind',
        'tool,turn',
        '--agent',
        'alice',
        '--json',
        '--workspace',
        dir,
      ]),
    )
    expect(tools.map((line) => line.kind)).toEqual(['turn', 'tool', 'turn', 'turn', 'tool', 'turn'])
    const lead = jsonLines(await cli(['timeline', '--agent', 'lead', '--json', '--workspace', dir]))
    // The lead's lane is empty, but a message to it is its too.
    expect(lead.map((line) => line.kind)).toEqual(['message'])
  })

  it('refuses bad arguments with exit 2 and says what it takes', async () => {
    const { dir } = team()
    const kind = await cli(['timeline', '--kind', 'mesage', '--workspace', dir])
    expect(kind.code).toBe(2)
    expect(kind.stderr).toContain(`--kind takes ${TIMELINE_KINDS.join(', ')}`)
    const since = await cli(['timeline', '--since', 'yesterday', '--workspace', dir])
    expect(since.code).toBe(2)
    expect(since.stderr).toMatch(/--since takes a date .* or a duration/)
    const agent = await cli(['timeline', '--agent', '../x', '--workspace', dir])
    expect(agent.code).toBe(2)
    const extra = await cli(['timeline', 'now', '--workspace', dir])
    expect(extra.code).toBe(2)
    const mixed = await cli(['timeline', '--summary', '--kind', 'tool', '--workspace', dir])
    expect(mixed.code).toBe(2)
  })

  it('--summary prints the away digest; --json answers it as one object', async () => {
    const { dir, paths } = team()
    writeFileSync(
      join(paths.root, 'needs-you.json'),
      JSON.stringify({
        v: 1,
        entries: [
          {
            id: 'n-1',
            agent: 'alice',
            kind: 'question',
            summary: 'Which notes?',
            detail: 'Which notes?',
            status: 'pending',
            created_at: MINUTES_AGO,
            settled_at: null,
            answer: null,
          },
        ],
      }),
    )
    const text = await cli(['timeline', '--summary', '--since', '2h', '--workspace', dir])
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^While you were away/)
    expect(text.stdout).toContain('Finished:\n  alice: alice finished its work (idle)')
    expect(text.stdout).toContain('Waiting for you:\n  alice: question: Which notes?')
    expect(text.stdout).toMatch(/Spent: <\$0\.01, 220 tokens/)
    const json = await cli(['timeline', '--summary', '--json', '--workspace', dir])
    const digest = JSON.parse(json.stdout) as { counts: Record<string, number>; tokens: number }
    expect(digest.tokens).toBe(220)
    expect(digest.counts).toMatchObject({ turn: 2, tool: 1, message: 1, approval: 1 })
  })
})
