import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { awayDigest } from '../../../../src/runtime/timeline/away-digest'
import { readTimeline, type TimelineFiles } from '../../../../src/runtime/timeline/read-timeline'
import { TimelineSeenStore } from '../../../../src/runtime/timeline/seen-store'
import type { TeamPaths } from '../../../../src/runtime/team/paths'
import { timelineSchema } from '../../../../src/shared/timeline'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { generatedTranscript, HISTORY_START, writeTranscriptFile } from '../../../helpers/history'
import { tempTeam, tempWorkspace } from '../../../helpers/workspace'

function filesOf(paths: TeamPaths): TimelineFiles {
  return {
    paths,
    prices: {},
    worktrees: () => {
      throw new Error('no teammate here has a worktree')
    },
  }
}

const at = (seq: number) => HISTORY_START + seq * 60
const base = (seq: number) => ({ v: 1 as const, seq, at: at(seq) })

/** A short activation: woken, a turn with a compaction before it, idle; then a round cap. */
function activation(): TranscriptRecord[] {
  return [
    { ...base(1), kind: 'user', from: 'user', text: 'Go.' },
    {
      ...base(2),
      kind: 'compaction',
      through_seq: 1,
      identity: 'lead',
      summary: 'earlier',
      trigger: 'threshold',
      tokens_before: 9000,
      tokens_after: 900,
      window: 10000,
      model: 'claude-sonnet-4-5',
      usage: { input_tokens: 1000, output_tokens: 100 },
    },
    {
      ...base(3),
      kind: 'assistant',
      message_id: 'msg_3',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'All done.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1_000_000, output_tokens: 0 },
    },
    { ...base(4), kind: 'user', from: 'user', text: 'Again.' },
    {
      ...base(5),
      kind: 'status',
      status: 'idle',
      reason: 'stopped after the round cap',
      cause: 'round-cap',
    },
  ]
}

describe('the timeline from files', () => {
  it('turns, wakes, ends, compactions with tokens and cost', async () => {
    const { paths } = tempWorkspace()
    writeTranscriptFile(paths, 'lead', activation())
    const timeline = await readTimeline(filesOf(paths), {})
    expect(timelineSchema.parse(timeline)).toEqual(timeline)
    expect(timeline.entries.map((entry) => `${entry.kind} ${entry.status ?? ''}`)).toEqual([
      'status working',
      'compaction ',
      'turn ',
      'status idle',
      'status working',
      'status idle',
    ])
    const turn = timeline.entries.find((entry) => entry.kind === 'turn')
    // Sonnet's list price: $3 per million input tokens; the turn began after the compaction.
    expect(turn).toMatchObject({ usd: 3, at: at(2), end: at(3) })
    expect(timeline.entries.at(-1)).toMatchObject({ cause: 'round-cap', id: 'status:lead:5' })
    const digest = await awayDigest(filesOf(paths), { since: 0, until: at(10) })
    expect(digest.failed.map((line) => line.entryId)).toEqual(['status:lead:5'])
    expect(digest.tokens).toBe(1_001_100)
    expect(digest.counts).toMatchObject({ status: 4, turn: 1, compaction: 1 })
  })

  it('reads only the newest part of a long transcript for a limit, and says it is truncated', async () => {
    const { paths } = tempWorkspace()
    const records = generatedTranscript(3000)
    // Quiet points to stop at: every cycle ends in a turn that calls no tool.
    const quiet = records.map((record) =>
      record.kind === 'assistant' && record.seq % 30 === 2
        ? { ...record, content: [{ type: 'text', text: 'Rest.' }], stop_reason: 'end_turn' }
        : record,
    ) as TranscriptRecord[]
    // Three agents whose records interleave: the newest 100 come from all of them.
    writeTranscriptFile(paths, 'lead', quiet)
    for (const [index, name] of ['alice', 'bob'].entries())
      writeTranscriptFile(
        paths,
        name,
        quiet.map((record) => ({ ...record, at: record.at + (index + 1) * 7 })),
      )
    const whole = await readTimeline(filesOf(paths), {})
    const lanes = new Set(whole.entries.slice(-100).map((entry) => entry.agent))
    expect(lanes.size).toBeGreaterThan(1)
    const newest = await readTimeline(filesOf(paths), { limit: 100 })
    expect(newest.truncated).toBe(true)
    expect(newest.entries.map((entry) => entry.id)).toEqual(
      whole.entries.slice(-100).map((entry) => entry.id),
    )
    expect(newest.span).toEqual(whole.span)
    const oneLane = await readTimeline(filesOf(paths), { limit: 50, agents: ['bob'] })
    expect(oneLane.entries.map((entry) => entry.id)).toEqual(
      whole.entries
        .filter((entry) => entry.agent === 'bob')
        .slice(-50)
        .map((entry) => entry.id),
    )
    const recent = await readTimeline(filesOf(paths), { since: at(2900) })
    expect(recent.entries.map((entry) => entry.id)).toEqual(
      whole.entries.filter((entry) => entry.at >= at(2900)).map((entry) => entry.id),
    )
  })

  it('hostile files are problems, never a crash: garbage, a FIFO, a symlink, 1e300', async () => {
    const team = tempTeam(['alice', 'bob'])
    const { paths } = team
    writeTranscriptFile(paths, 'lead', activation())
    appendFileSync(
      paths.transcript('lead'),
      'not json at all\n{"v":1,"seq":9,"at":1e300,"kind":"user","from":"user","text":"x"}\n{"torn":',
    )
    // A FIFO for bob's transcript, a symlink for alice's.
    execFileSync('mkfifo', [paths.transcript('bob')])
    const elsewhere = join(paths.workspace, 'elsewhere.jsonl')
    writeFileSync(elsewhere, `${JSON.stringify(activation()[0])}\n`)
    symlinkSync(elsewhere, paths.transcript('alice'))
    team.mailbox.send({ from: 'alice', to: 'lead', content: 'hello' })
    appendFileSync(
      paths.inbox('lead'),
      'garbage line\n{"type":"message","from":"bob","content":"x","timestamp":1e300}\n',
    )
    mkdirSync(join(paths.root, 'tasks'), { recursive: true })
    writeFileSync(join(paths.root, 'tasks', '1.json'), '{"v":1,')
    writeFileSync(join(paths.root, 'needs-you.json'), '[]')
    writeFileSync(
      join(paths.root, 'reactions.jsonl'),
      `{"v":1,"id":"r-1","kind":"nudge","at":1e300,"end":null,"agent":"bob","summary":"x","failed":false}\n[1,2]\n`,
    )
    const timeline = await readTimeline(filesOf(paths), {})
    expect(timelineSchema.parse(timeline)).toEqual(timeline)
    const problems = timeline.problems.join('\n')
    expect(problems).toMatch(/not valid JSON/)
    expect(problems).toMatch(/1e\+300 is out of range/)
    expect(problems).toMatch(/named pipe \(FIFO\)/)
    expect(problems).toMatch(/symbolic link/)
    expect(problems).toMatch(/lead's inbox at p1-\d+: not valid JSON/)
    expect(problems).toMatch(/1\.json/)
    expect(problems).toMatch(/needs-you\.json is damaged/)
    expect(problems).toMatch(/reactions\.jsonl line 1: at/)
    expect(problems).toMatch(/reactions\.jsonl line 2/)
    // What could be read is there.
    expect(timeline.entries.filter((entry) => entry.kind === 'message')).toHaveLength(1)
    expect(timeline.entries.filter((entry) => entry.agent === 'lead')).toHaveLength(6)
    expect(timeline.entries.every((entry) => entry.at < 1e11)).toBe(true)
  })

  it('the last look is the app’s own record per workspace, and only moves forward', () => {
    const { dir } = tempWorkspace('agent-teams-config-')
    const store = new TimelineSeenStore(dir)
    expect(store.lastSeen('/work/a')).toBeNull()
    store.markSeen('/work/a', 100)
    store.markSeen('/work/a', 50)
    store.markSeen('/work/b', 7)
    expect(store.lastSeen('/work/a')).toBe(100)
    expect(new TimelineSeenStore(dir).lastSeen('/work/b')).toBe(7)
    writeFileSync(store.file, '{"v":1,"workspaces":{"/work/a":1e300}}')
    expect(store.lastSeen('/work/a')).toBeNull()
    expect(store.lastSeen('__proto__')).toBeNull()
  })
})
