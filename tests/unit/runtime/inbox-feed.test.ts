import { appendFileSync, mkdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { queueScript, text } from '../../../src/offline-model/script'
import { countPending, InboxFeed } from '../../../src/runtime/mailbox/inbox-feed'
import { newPendingTally, type Mailbox } from '../../../src/runtime/mailbox/mailbox'
import type { TeamEvent, TeamEventOf } from '../../../src/shared/events'
import { eventsOf } from '../../helpers/faults'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'
import { tempTeam } from '../../helpers/workspace'

/** A mailbox whose counts answer when the test says, with the number it says. */
function heldCounts(): {
  mailbox: Mailbox
  asked: () => number
  answer: (pending: number) => Promise<void>
} {
  const waiting: ((pending: number) => void)[] = []
  const mailbox = {
    countPending: () => new Promise<number>((resolve) => waiting.push(resolve)),
  } as unknown as Mailbox
  return {
    mailbox,
    asked: () => waiting.length,
    answer: async (pending) => {
      const next = waiting.shift()
      if (next === undefined) throw new Error('no count was asked for')
      next(pending)
      // The feed reports on the next turns of the event loop.
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
}

function inboxEvents(events: readonly TeamEvent[]): TeamEventOf<'inbox-changed'>[] {
  return events.filter(
    (event): event is TeamEventOf<'inbox-changed'> => event.type === 'inbox-changed',
  )
}

describe('the inbox feed', () => {
  it('reports each change with the count read after it, one count at a time', async () => {
    const counts = heldCounts()
    const events: TeamEvent[] = []
    const feed = new InboxFeed(counts.mailbox, (event) => events.push(event), 0)
    feed.changed('alice', 'appended')
    // Changes during the count are read once more after it, reported as one: the one that may
    // bring mail wins over the commit after it, so that no wake is lost.
    feed.changed('alice', 'appended')
    feed.changed('alice', 'consumed')
    expect(counts.asked()).toBe(1)
    await counts.answer(1)
    expect(counts.asked()).toBe(1)
    await counts.answer(3)
    expect(counts.asked()).toBe(0)
    expect(inboxEvents(events)).toEqual([
      { type: 'inbox-changed', name: 'alice', change: 'appended', pending: 1 },
      { type: 'inbox-changed', name: 'alice', change: 'appended', pending: 3 },
    ])
  })

  it('counts a busy inbox again no sooner than the gap after the last count began', async () => {
    const counts = heldCounts()
    const events: TeamEvent[] = []
    const feed = new InboxFeed(counts.mailbox, (event) => events.push(event), 200)
    const began = Date.now()
    feed.changed('alice', 'appended')
    feed.changed('alice', 'appended')
    await counts.answer(1)
    expect(counts.asked()).toBe(0)
    await waitFor(
      () => counts.asked() === 1,
      () => 'the second count',
    )
    expect(Date.now() - began).toBeGreaterThanOrEqual(190)
    // Closing cuts a wait short and reports nothing more.
    feed.changed('alice', 'appended')
    await counts.answer(2)
    const closed = feed.close()
    await closed
    expect(inboxEvents(events).map((event) => event.pending)).toEqual([1, 2])
  })

  it('counts inboxes apart, and reports nothing once closed', async () => {
    const counts = heldCounts()
    const events: TeamEvent[] = []
    const feed = new InboxFeed(counts.mailbox, (event) => events.push(event), 0)
    feed.changed('alice', 'consumed')
    feed.changed('bob', 'added')
    expect(counts.asked()).toBe(2)
    const closed = feed.close()
    await counts.answer(0)
    await counts.answer(2)
    await closed
    feed.changed('alice', 'appended')
    expect(counts.asked()).toBe(0)
    expect(events).toEqual([])
  })

  it('counts what waits from the cursor on, and none for an inbox that is not a file', async () => {
    const team = tempTeam()
    for (const content of ['one', 'two', 'three'])
      team.mailbox.send({ from: 'lead', to: 'alice', content })
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    consumer.commit({ ...batch, end: batch.deliveries[1]!.position, deliveries: [] })
    expect(await countPending(team.mailbox, 'alice')).toBe(2)
    mkdirSync(team.paths.inbox('bob'))
    expect(await countPending(team.mailbox, 'bob')).toBe(0)
  })

  it('a tally kept between counts gives what a full count gives, as mail comes and goes', async () => {
    const team = tempTeam()
    const tally = newPendingTally()
    const consumer = team.consumer('alice')
    const both = async (): Promise<[number, number]> => [
      await countPending(team.mailbox, 'alice', tally),
      await countPending(team.mailbox, 'alice'),
    ]
    const send = (count: number): void => {
      for (let index = 0; index < count; index++)
        team.mailbox.send({ from: 'lead', to: 'alice', content: `m${index}` })
    }
    expect(await both()).toEqual([0, 0])
    send(3)
    appendFileSync(team.paths.inbox('alice'), 'not json\n{"torn":')
    expect(await both()).toEqual([3, 3])
    appendFileSync(team.paths.inbox('alice'), ' true}\n')
    send(2)
    expect(await both()).toEqual([5, 5])
    // The agent takes the first: the tally drops it without reading the rest again.
    const batch = await consumer.poll()
    consumer.commit({ ...batch, end: batch.deliveries[1]!.position, deliveries: [] })
    expect(await both()).toEqual([4, 4])
    await consumer.commit(await consumer.poll())
    expect(await both()).toEqual([0, 0])
    // A new segment after an archive: counted from its start.
    consumer.archive()
    send(4)
    expect(await both()).toEqual([4, 4])
  })
})

describe('a running team reports its inboxes with their counts', () => {
  it('an outside append, then the agent taking it: the counts follow, as inbox-changed', async () => {
    const script = queueScript({ alice: [text('Waiting.'), text('Read it.')] })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait for work.' })
    await team.host.whenIdle()
    const before = eventsOf(team, 'inbox-changed').length
    const line = JSON.stringify({ type: 'message', from: 'lead', content: 'a note', timestamp: 1 })
    appendFileSync(team.host.team.paths.inbox('alice'), `${line}\n`)
    await waitFor(
      () => team.records('alice', 'assistant').length === 2,
      () => 'alice to read the note',
    )
    await team.host.whenIdle()
    await waitFor(
      () => eventsOf(team, 'inbox-changed').at(-1)?.change === 'consumed',
      () => 'the count after alice took the note',
    )
    const changes = eventsOf(team, 'inbox-changed')
      .slice(before)
      .filter((event) => event.name === 'alice')
    // Her first mail makes the file: "added", counted with the note in it.
    expect(changes[0]).toMatchObject({ change: 'added', pending: 1 })
    expect(changes.at(-1)).toEqual({
      type: 'inbox-changed',
      name: 'alice',
      change: 'consumed',
      pending: 0,
    })
  })
})
