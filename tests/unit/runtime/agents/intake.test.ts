import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import type { TeamEvent } from '../../../../src/shared/events'
import type { ToolUseBlock } from '../../../../src/shared/transcript'
import { InboxIntake, RECHECK_MS } from '../../../../src/runtime/agents/intake'
import { TranscriptStore } from '../../../../src/runtime/agents/transcript-store'
import { FAR_FUTURE_MS, tempTeam } from '../../../helpers/workspace'

/** An intake for alice over a real inbox and transcript, with a clock the test moves. */
function aliceIntake(options: { signalled: boolean }) {
  const team = tempTeam(['alice'])
  let now = FAR_FUTURE_MS
  const clock = { now: () => now }
  const store = TranscriptStore.open(team.paths.transcript('alice'), clock)
  onTestFinished(() => store.close())
  const consumer = team.consumer('alice')
  const events: TeamEvent[] = []
  const intake = new InboxIntake({
    name: 'alice',
    consumer,
    store,
    record: (record) => store.append(record),
    emit: (event) => events.push(event),
    judge: () => null,
    wakeLater: () => undefined,
    clock,
    signalled: options.signalled,
  })
  const polls = vi.spyOn(consumer, 'poll')
  const flushes = vi.spyOn(store, 'flushAsync')
  const commits = vi.spyOn(consumer, 'commit')
  return {
    team,
    store,
    consumer,
    intake,
    events,
    polls,
    flushes,
    commits,
    advance: (milliseconds: number) => (now += milliseconds),
  }
}

/** A line appended by another program: no signal reaches the intake. */
function appendExternally(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true })
  appendFileSync(
    path,
    `${JSON.stringify({ type: 'message', from: 'lead', content, timestamp: 1 })}\n`,
  )
}

const readInbox = (id: string): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name: 'read_inbox',
  input: {},
})

describe('the inbox intake', () => {
  it('polls only after a change was signalled, or once the safety re-check is due', async () => {
    const alice = aliceIntake({ signalled: true })
    expect(await alice.intake.inject()).toBe(0) // the first look always polls
    expect(alice.polls).toHaveBeenCalledTimes(1)

    appendExternally(alice.team.paths.inbox('alice'), 'unsignalled')
    expect(await alice.intake.inject()).toBe(0)
    expect(alice.polls).toHaveBeenCalledTimes(1)

    alice.advance(RECHECK_MS)
    expect(await alice.intake.inject()).toBe(1)
    expect(alice.polls).toHaveBeenCalledTimes(2)

    alice.team.mailbox.send({ from: 'lead', to: 'alice', content: 'signalled' })
    alice.intake.markChanged()
    expect(await alice.intake.inject()).toBe(1)
    const contents = alice.store.all.flatMap((record) =>
      record.kind === 'inbox' ? record.messages.map((message) => message.content) : [],
    )
    expect(contents).toEqual(['unsignalled', 'signalled'])
  })

  it('looks again after a poll that took something, since it may have stopped short', async () => {
    const alice = aliceIntake({ signalled: true })
    alice.team.mailbox.send({ from: 'lead', to: 'alice', content: 'first' })
    expect(await alice.intake.inject()).toBe(1)
    appendExternally(alice.team.paths.inbox('alice'), 'second')
    expect(await alice.intake.inject()).toBe(1)
    expect(await alice.intake.inject()).toBe(0)
    expect(await alice.intake.inject()).toBe(0)
    expect(alice.polls).toHaveBeenCalledTimes(3)
  })

  it('without signals, polls before every look', async () => {
    const alice = aliceIntake({ signalled: false })
    await alice.intake.inject()
    await alice.intake.inject()
    appendExternally(alice.team.paths.inbox('alice'), 'seen at once')
    expect(await alice.intake.inject()).toBe(1)
    expect(alice.polls).toHaveBeenCalledTimes(3)
  })

  it('an empty read_inbox is recorded without an fsync or a commit', async () => {
    const alice = aliceIntake({ signalled: true })
    const before = alice.consumer.position
    expect(await alice.intake.takeForReadInbox(readInbox('toolu_1'))).toBe('[]')
    alice.intake.markChanged()
    expect(await alice.intake.takeForReadInbox(readInbox('toolu_2'))).toBe('[]')
    expect(alice.polls).toHaveBeenCalledTimes(2)
    expect(alice.flushes).not.toHaveBeenCalled()
    expect(alice.commits).not.toHaveBeenCalled()
    const results = alice.store.all.filter((record) => record.kind === 'tool-result')
    expect(
      results.map((record) => [record.tool_use_id, record.inbox_end, record.inbox_ids]),
    ).toEqual([
      ['toolu_1', before, []],
      ['toolu_2', before, []],
    ])
  })

  it('a read_inbox that takes mail fsyncs the transcript before the cursor moves', async () => {
    const alice = aliceIntake({ signalled: true })
    const order: string[] = []
    alice.flushes.mockImplementation(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      order.push('flush')
    })
    alice.commits.mockImplementationOnce(() => order.push('commit'))
    alice.team.mailbox.send({ from: 'lead', to: 'alice', content: 'for the tool' })
    const content = await alice.intake.takeForReadInbox(readInbox('toolu_1'))
    expect(JSON.parse(content)).toEqual([expect.objectContaining({ content: 'for the tool' })])
    expect(order).toEqual(['flush', 'commit'])
    expect(alice.events).toContainEqual(
      expect.objectContaining({ type: 'message-delivered', agent: 'alice' }),
    )
  })

  it('a poll that failed leaves the signal set, so the next look reads again', async () => {
    const alice = aliceIntake({ signalled: true })
    expect(await alice.intake.inject()).toBe(0)
    alice.team.mailbox.send({ from: 'lead', to: 'alice', content: 'after a failed read' })
    alice.intake.markChanged()
    alice.polls.mockRejectedValueOnce(new Error('EIO: i/o error, read'))
    await expect(alice.intake.inject()).rejects.toThrow('EIO')
    expect(await alice.intake.inject()).toBe(1)
  })
})
