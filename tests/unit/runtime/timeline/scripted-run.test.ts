import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { readTimeline, type TimelineFiles } from '../../../../src/runtime/timeline/read-timeline'
import { TIMELINE_KINDS, timelineSchema, type TimelineEntry } from '../../../../src/shared/timeline'
import { gitWorkspace } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** Every message line in every inbox (live and archived segments), counted from the files. */
function inboxLineCount(workspace: string): number {
  const team = join(workspace, '.team')
  const files = readdirSync(join(team, 'inbox')).map((file) => join(team, 'inbox', file))
  const mailbox = join(team, 'mailbox')
  if (existsSync(mailbox))
    for (const name of readdirSync(mailbox)) {
      const archive = join(mailbox, name, 'archive')
      if (existsSync(archive))
        files.push(...readdirSync(archive).map((file) => join(archive, file)))
    }
  return files
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .filter((line) => line.trim() !== '').length
}

function filesOf(team: HostUnderTest): TimelineFiles {
  return { paths: team.host.team.paths, prices: {}, worktrees: () => team.host.worktrees.git }
}

/** Approves every tool call alice asks for while the test runs. */
function approveAlice(team: HostUnderTest): void {
  const timer = setInterval(() => {
    for (const entry of team.host.needsYou.pending())
      if (entry.kind === 'tool') team.host.answerNeedsYou({ id: entry.id, decision: 'approve' })
  }, 10)
  onTestFinished(() => clearInterval(timer))
}

const kindsOf = (entries: readonly TimelineEntry[]) => new Set(entries.map((entry) => entry.kind))

describe('the timeline of a scripted run', () => {
  it('has every kind, in order, and one message entry per inbox line', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      lead: [
        toolCall('spawn_teammate', {
          name: 'alice',
          role: 'coder',
          prompt: 'Take task 1.',
          approval: 'ask',
        }),
        text('Spawned alice.'),
        toolCall('send_message', { to: 'alice', content: 'Thanks, well done.' }),
        text('Told her.'),
      ],
      alice: [
        toolCall('claim_task', { id: '1' }),
        toolCall('read_file', { path: 'missing.txt' }),
        toolCall('bash', {
          command:
            'echo "export const parse = 1" > parser.ts && git add -A && git commit -qm "Add the parser"',
        }),
        toolCall('complete_task', { id: '1', result: 'Parser written.' }),
        toolCall('send_message', { to: 'lead', content: 'Parser done.' }),
        text('Done.'),
        text('Thank you!'),
      ],
    })
    const team = await startHost(script, { workspace })
    approveAlice(team)
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    team.host.chat('Build the parser with a teammate.')
    const aliceTurns = () =>
      team.host.team.roster.find('alice') ? team.records('alice', 'assistant').length : 0
    await waitFor(
      () => aliceTurns() === 7,
      () => `alice's 7 turns (has ${aliceTurns()})`,
      { timeout: 20_000 },
    )
    await team.host.whenIdle()
    script.assertConsumed()

    // A budget pause: alice has used 7 rounds, and may use 7.
    team.host.setBudget('alice', { tokens: null, rounds: 7, usd: null })
    team.host.send({ to: 'alice', content: 'One more thing.' })
    await waitFor(
      () => team.records('alice', 'status').some((record) => record.cause === 'budget'),
      () => 'a budget pause in alice’s transcript',
      { timeout: 10_000 },
    )
    const merged = await team.host.worktrees.merge('alice', {})
    expect(merged.outcome).toBe('merged')

    // The unattended logs, as the reactions and the schedules write them.
    const now = Date.now() / 1000
    appendFileSync(
      join(workspace, '.team', 'reactions.jsonl'),
      `${JSON.stringify({ v: 1, id: 'r-1', kind: 'check', at: now, end: now + 1, agent: 'alice', summary: 'check `npm test` failed (exit 1)', failed: true, commit: null, exit_code: 1 })}\n` +
        `${JSON.stringify({ v: 1, id: 'r-2', kind: 'nudge', at: now + 2, end: null, agent: 'alice', summary: 'nudged alice', failed: false })}\n`,
    )
    appendFileSync(
      join(workspace, '.team', 'schedule-runs.jsonl'),
      `${JSON.stringify({ v: 1, id: 's-1', run: 's-1', schedule: 'nightly', event: 'started', at: now + 3, summary: 'prompt sent to the lead' })}\n`,
    )

    const timeline = await readTimeline(filesOf(team), {})
    expect(timelineSchema.parse(timeline)).toEqual(timeline)
    expect(timeline.problems).toEqual([])
    const kinds = kindsOf(timeline.entries)
    for (const kind of TIMELINE_KINDS.filter((kind) => kind !== 'compaction'))
      expect(kinds, kind).toContain(kind)
    const times = timeline.entries.map((entry) => entry.at)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(new Set(timeline.entries.map((entry) => entry.id)).size).toBe(timeline.entries.length)
    expect(timeline.agents[0]).toBe('lead')

    const messages = timeline.entries.filter((entry) => entry.kind === 'message')
    expect(messages).toHaveLength(inboxLineCount(workspace))
    const fromAlice = messages.find((entry) => entry.agent === 'alice' && entry.to === 'lead')
    expect(fromAlice?.delivery).toMatchObject({ state: 'delivered' })
    expect(fromAlice?.delivery?.seq).toBeGreaterThan(0)
    const lastMessage = messages.at(-1)
    expect(lastMessage).toMatchObject({ to: 'alice', summary: 'user → alice: One more thing.' })

    const tools = timeline.entries.filter((entry) => entry.kind === 'tool')
    expect(tools.find((entry) => entry.tool === 'read_file')).toMatchObject({ failed: true })
    expect(tools.find((entry) => entry.tool === 'bash')).toMatchObject({ failed: false })
    expect(tools.every((entry) => entry.end !== null && entry.end >= entry.at)).toBe(true)

    const done = timeline.entries.find(
      (entry) => entry.kind === 'task' && entry.task?.status === 'done',
    )
    expect(done?.task).toMatchObject({ id: '1', owner: 'alice', subject: 'Write the parser' })
    const claimed = timeline.entries.find(
      (entry) => entry.kind === 'task' && entry.task?.status === 'in_progress',
    )
    expect(claimed?.agent).toBe('alice')

    const approvals = timeline.entries.filter((entry) => entry.kind === 'approval')
    expect(approvals.some((entry) => entry.agent === 'alice' && entry.status === 'pending')).toBe(
      true,
    )
    expect(approvals.some((entry) => entry.agent === 'user' && entry.status === 'approved')).toBe(
      true,
    )
    expect(timeline.entries.find((entry) => entry.kind === 'budget')).toMatchObject({
      agent: 'alice',
      status: 'waiting',
      cause: 'budget',
    })
    expect(timeline.entries.find((entry) => entry.kind === 'commit')?.summary).toContain(
      'Add the parser',
    )
    expect(timeline.entries.find((entry) => entry.kind === 'merge')).toMatchObject({
      agent: 'alice',
      failed: false,
    })
    expect(timeline.entries.find((entry) => entry.kind === 'check')).toMatchObject({
      failed: true,
      end: now + 1,
    })
    const turns = timeline.entries.filter((entry) => entry.kind === 'turn')
    expect(turns.every((entry) => (entry.tokens?.output ?? 0) > 0)).toBe(true)

    // Read again, the same ids: a window that refetches keeps its place.
    const again = await readTimeline(filesOf(team), {})
    expect(again.entries.map((entry) => entry.id)).toEqual(
      timeline.entries.map((entry) => entry.id),
    )

    // Filters: one lane, one kind, a time window.
    const alice = await readTimeline(filesOf(team), { agents: ['alice'], kinds: ['tool'] })
    expect(alice.entries.length).toBe(tools.filter((entry) => entry.agent === 'alice').length)
    const newest = await readTimeline(filesOf(team), { limit: 3 })
    expect(newest.entries.map((entry) => entry.id)).toEqual(
      timeline.entries.slice(-3).map((entry) => entry.id),
    )
    expect(newest.truncated).toBe(true)
  })
})
