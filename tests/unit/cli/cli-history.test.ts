import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { historyLineSchema, searchHitSchema } from '../../../src/shared/history'
import { transcriptRecordSchema } from '../../../src/shared/transcript'
import { cli, jsonLines } from '../../helpers/cli'
import { generatedTranscript, writeTranscriptFile } from '../../helpers/history'
import { tempTeam } from '../../helpers/workspace'

function team() {
  const made = tempTeam(['alice', 'bob'])
  writeTranscriptFile(made.paths, 'alice', generatedTranscript(10_000, { 25: 'the osprey branch' }))
  writeTranscriptFile(made.paths, 'bob', generatedTranscript(12, { 4: 'osprey tests pass' }))
  made.mailbox.send({ from: 'alice', to: 'bob', content: 'Is the osprey branch merged?' })
  return made
}

describe('agent-teams search', () => {
  it('prints the matches grouped by agent, each match marked', async () => {
    const { dir } = team()
    const result = await cli(['search', 'osprey', '--workspace', dir])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('alice (1 match)')
    expect(result.stdout).toContain('bob (2 matches)')
    expect(result.stdout).toContain('transcript #25 · lead')
    expect(result.stdout).toMatch(/inbox p1-0 · alice · .*\n {4}Is the \[osprey\] branch merged\?/)
  })

  it('narrows to an agent, and answers JSON hits', async () => {
    const { dir } = team()
    const result = await cli([
      'search',
      'osprey branch',
      '--agent',
      'alice',
      '--json',
      '--workspace',
      dir,
    ])
    expect(result.code).toBe(0)
    const hits = jsonLines(result).map((line) => searchHitSchema.parse(line))
    expect(hits.map((hit) => [hit.agent, hit.place])).toEqual([
      ['alice', { source: 'transcript', seq: 25 }],
    ])
  })

  it('refuses a bad agent, a bad date and an empty query', async () => {
    const { dir } = team()
    const unknown = await cli(['search', 'x', '--agent', 'carol', '--workspace', dir])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/"carol" is not on the roster/)
    const badName = await cli(['search', 'x', '--agent', '../x', '--workspace', dir])
    expect(badName.code).toBe(2)
    expect(badName.stderr).toMatch(/agent: must be an agent name/)
    const badDate = await cli(['search', 'x', '--since', 'yesterday', '--workspace', dir])
    expect(badDate.code).toBe(2)
    expect(badDate.stderr).toMatch(/--since takes a date/)
    const empty = await cli(['search', '', '--workspace', dir])
    expect(empty.code).toBe(2)
    const nothing = await cli(['search', 'albatross', '--workspace', dir])
    expect(nothing.stdout).toMatch(/^Nothing found/)
  })
})

describe('agent-teams export', () => {
  it("writes an agent's transcript as JSONL that reads back as the same records", async () => {
    const { dir, paths } = team()
    const out = join(dir, 'alice.jsonl')
    const result = await cli([
      'export',
      '--agent',
      'alice',
      '--format',
      'jsonl',
      '--out',
      out,
      '--workspace',
      dir,
    ])
    expect(result.code).toBe(0)
    const exported = readFileSync(out, 'utf8')
    expect(exported).toBe(readFileSync(paths.transcript('alice'), 'utf8'))
    const records = exported
      .trimEnd()
      .split('\n')
      .map((line) => transcriptRecordSchema.parse(JSON.parse(line)))
    expect(records).toEqual(generatedTranscript(10_000, { 25: 'the osprey branch' }))
  })

  it("writes the team's history as JSONL lines and as Markdown", async () => {
    const { dir } = team()
    const jsonl = await cli(['export', '--format', 'jsonl', '--workspace', dir])
    expect(jsonl.code).toBe(0)
    const lines = jsonl.lines.map((line) => historyLineSchema.parse(JSON.parse(line)))
    expect(
      lines.filter((line) => line.source === 'transcript' && line.agent === 'bob'),
    ).toHaveLength(12)
    expect(lines.filter((line) => line.source === 'inbox')).toEqual([
      expect.objectContaining({
        agent: 'bob',
        state: 'pending',
        message: expect.objectContaining({
          from: 'alice',
          content: 'Is the osprey branch merged?',
        }),
      }),
    ])
    const bobRecords = lines.flatMap((line) =>
      line.source === 'transcript' && line.agent === 'bob' ? [line.record] : [],
    )
    expect(bobRecords).toEqual(generatedTranscript(12, { 4: 'osprey tests pass' }))

    const markdown = await cli(['export', '--format', 'md', '--workspace', dir])
    expect(markdown.code).toBe(0)
    expect(markdown.stdout).toMatch(/^# Team history: /)
    expect(markdown.stdout).toContain('## bob')
    expect(markdown.stdout).toContain('### Inbox of bob')
    expect(markdown.stdout).toContain('> Is the osprey branch merged?')
    expect(markdown.stdout).toContain('osprey tests pass')
    expect(markdown.stdout).toContain('```json')
  })

  it('asks for a format it knows', async () => {
    const { dir } = team()
    const result = await cli(['export', '--format', 'pdf', '--workspace', dir])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--format takes md or jsonl/)
  })
})
