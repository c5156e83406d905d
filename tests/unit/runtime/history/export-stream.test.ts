import { appendFileSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeStreamed } from '../../../../src/cli/output'
import { readTranscriptRecords } from '../../../../src/runtime/agents/transcript-lines'
import { readTranscript } from '../../../../src/runtime/agents/transcript-store'
import { cli } from '../../../helpers/cli'
import { generatedTranscript, writeTranscriptFile } from '../../../helpers/history'
import { tempTeam } from '../../../helpers/workspace'

describe('the streamed export', () => {
  it('reads a transcript record by record as readTranscript reads it whole', () => {
    const team = tempTeam(['alice'])
    const records = generatedTranscript(3000)
    // Lines longer than a chunk, with characters of several bytes across chunk boundaries.
    for (const at of [5, 1500, 2999]) {
      const record = records[at]
      if (record?.kind === 'tool-result')
        records[at] = { ...record, content: 'é€😀x'.repeat(300_000 + at) }
    }
    writeTranscriptFile(team.paths, 'alice', records)
    const path = team.paths.transcript('alice')
    appendFileSync(path, '\n   \n{"broken"\n{"v":1,"kind":"user"}\n')
    writeTranscriptFile(team.paths, 'bob', generatedTranscript(2))
    appendFileSync(path, readFileSync(team.paths.transcript('bob')))
    appendFileSync(path, '{"v":1,"seq":99,"at":1,"kind":"us') // torn: not read
    const whole = readTranscript(path)
    const streamed = [...readTranscriptRecords(path)]
    expect(streamed.flatMap((line) => (line.record ? [line.record] : []))).toEqual(whole.records)
    expect(streamed.flatMap((line) => (line.problem ? [line.problem] : []))).toEqual(whole.problems)
    expect(whole.records).toHaveLength(3002)
    expect(whole.problems).toEqual([
      'line 3003: not valid JSON',
      expect.stringMatching(/^line 3004: /),
    ])
  })

  it('makes the next piece only once the stream took the chunk before', async () => {
    let made = 0
    let written = 0
    let ahead = 0
    async function* pieces(): AsyncGenerator<string> {
      for (let index = 0; index < 2000; index++) {
        made += 1000
        ahead = Math.max(ahead, made - written)
        yield 'x'.repeat(1000)
      }
    }
    await writeStreamed(pieces(), async (chunk) => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      written += chunk.length
    })
    expect(written).toBe(2_000_000)
    // One chunk (256 KiB) being gathered, one piece past it: never the whole output.
    expect(ahead).toBeLessThanOrEqual(256 * 1024 + 1000)
  })

  it('a failed export to a file leaves the file that was there, and no half file', async () => {
    const team = tempTeam(['alice', 'bob'])
    writeTranscriptFile(team.paths, 'alice', generatedTranscript(50))
    // bob's transcript is a link out of .team/: refused when the export reaches it.
    writeFileSync(join(team.dir, 'elsewhere.jsonl'), '')
    symlinkSync(join(team.dir, 'elsewhere.jsonl'), team.paths.transcript('bob'))
    const out = join(team.dir, 'history.md')
    writeFileSync(out, 'the export of yesterday\n')
    const result = await cli(['export', '--format', 'md', '--out', out, '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/bob\.jsonl is a symbolic link/)
    expect(readFileSync(out, 'utf8')).toBe('the export of yesterday\n')
    expect(readdirSync(team.dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
    const written = await cli([
      'export',
      '--agent',
      'alice',
      '--format',
      'md',
      '--out',
      out,
      '--workspace',
      team.dir,
    ])
    expect(written.code).toBe(0)
    expect(readFileSync(out, 'utf8')).toMatch(/^# Transcript of alice\n/)
  })
})
