import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readCursor, type Batch } from '../../../src/runtime/mailbox/consumer'
import { TeamError } from '../../../src/shared/errors'
import { appendRaw, s09Line, tempTeam, type Team } from '../../helpers/workspace'

function contents(batch: Batch): string[] {
  return batch.deliveries.map((delivery) => delivery.message.content)
}

function sendMany(team: Team, count: number, to = 'alice'): string[] {
  return Array.from(
    { length: count },
    (_, index) => team.mailbox.send({ from: 'lead', to, content: `c${index}` }).id,
  )
}

function thrown(action: () => unknown): TeamError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error('expected a TeamError')
}

describe('poll and commit', () => {
  it('delivers what is pending, and after the commit nothing again', async () => {
    const team = tempTeam()
    sendMany(team, 3)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(contents(batch)).toEqual(['c0', 'c1', 'c2'])
    expect(batch.rejections).toEqual([])
    expect(batch.start).toEqual({ segment: 1, offset: 0 })
    expect(batch.end).toEqual({
      segment: 1,
      offset: readFileSync(team.paths.inbox('alice')).length,
    })
    consumer.commit(batch)
    expect(consumer.position).toEqual(batch.end)
    expect(readCursor(team.paths, 'alice')).toEqual(batch.end)
    expect(contents(await consumer.poll())).toEqual([])
    team.mailbox.send({ from: 'bob', to: 'alice', content: 'later' })
    expect(contents(await consumer.poll())).toEqual(['later'])
  })

  it('redelivers a polled batch that was not committed', async () => {
    const team = tempTeam()
    sendMany(team, 2)
    const consumer = team.consumer('alice')
    const first = await consumer.poll()
    const second = await consumer.poll()
    expect(second.deliveries.map((d) => d.message.id)).toEqual(
      first.deliveries.map((d) => d.message.id),
    )
  })

  it('refuses to commit a batch twice, or a stale one', async () => {
    const team = tempTeam()
    sendMany(team, 1)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    consumer.commit(batch)
    const error = thrown(() => consumer.commit(batch))
    expect(error.code).toBe('stale-batch')
    expect(error.message).toMatch(/no longer the cursor/)
  })

  it('an empty inbox (no file at all) polls empty', async () => {
    const team = tempTeam()
    const consumer = team.consumer('bob')
    const batch = await consumer.poll()
    expect(batch.deliveries).toEqual([])
    expect(batch.end).toEqual(batch.start)
    consumer.commit(batch)
    expect(existsSync(team.paths.inbox('bob'))).toBe(false)
  })

  it('the commit persists: a new consumer starts after the committed messages', async () => {
    const team = tempTeam()
    sendMany(team, 2)
    const first = team.consumer('alice')
    first.commit(await first.poll())
    first.close()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'new' })
    expect(contents(await team.consumer('alice').poll())).toEqual(['new'])
  })

  it('never rewrites or truncates the inbox file', async () => {
    const team = tempTeam()
    sendMany(team, 5)
    const before = readFileSync(team.paths.inbox('alice'))
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    expect(readFileSync(team.paths.inbox('alice'))).toEqual(before)
  })
})

describe('torn lines, CRLF, blank lines', () => {
  it('a torn last line waits and is delivered once, when completed', async () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'whole' })
    const torn = s09Line('torn')
    appendRaw(team.paths, 'alice', torn.slice(0, 25))
    const consumer = team.consumer('alice')
    const first = await consumer.poll()
    expect(contents(first)).toEqual(['whole'])
    expect(first.rejections).toEqual([])
    consumer.commit(first)
    const waiting = await consumer.poll()
    expect(waiting.deliveries).toEqual([])
    expect(waiting.rejections).toEqual([])
    consumer.commit(waiting)
    appendRaw(team.paths, 'alice', torn.slice(25))
    const completed = await consumer.poll()
    expect(contents(completed)).toEqual(['torn'])
    consumer.commit(completed)
    expect(contents(await consumer.poll())).toEqual([])
  })

  it('a torn line is not shown by peek until it is complete', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', s09Line('x').slice(0, 10))
    expect((await team.mailbox.peek('alice')).entries).toEqual([])
  })

  it('tolerates CRLF line ends and blank lines', async () => {
    const team = tempTeam()
    appendRaw(
      team.paths,
      'alice',
      `\n\r\n${s09Line('one').replace('\n', '\r\n')}\n\n${s09Line('two').replace('\n', '\r\n')}`,
    )
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(contents(batch)).toEqual(['one', 'two'])
    expect(batch.rejections).toEqual([])
  })
})

describe('peek', () => {
  it('shows pending, delivered and rejected lines without consuming them', async () => {
    const team = tempTeam()
    sendMany(team, 2)
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    appendRaw(team.paths, 'alice', 'not json\n')
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'c2' })
    const page = await team.mailbox.peek('alice')
    expect(page.next).toBeNull()
    expect(
      page.entries.map((entry) => [entry.state, entry.message?.content ?? entry.reason]),
    ).toEqual([
      ['delivered', 'c0'],
      ['delivered', 'c1'],
      ['rejected', expect.stringMatching(/not valid JSON/)],
      ['pending', 'c2'],
    ])
    expect(contents(await consumer.poll())).toEqual(['c2'])
    expect(
      (await team.mailbox.peek('alice', { pendingOnly: true })).entries.map(
        (e) => e.message?.content ?? e.state,
      ),
    ).toEqual(['rejected', 'c2'])
  })

  it('pages through many messages with from/limit/next, nothing lost or repeated', async () => {
    const team = tempTeam()
    const ids = sendMany(team, 25)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    consumer.commit({
      ...batch,
      deliveries: batch.deliveries.slice(0, 12),
      end: batch.deliveries[12]!.position,
    })
    const seen: string[] = []
    const states: string[] = []
    let from = undefined
    let pages = 0
    for (;;) {
      const page = await team.mailbox.peek('alice', { from, limit: 10 })
      pages++
      expect(page.entries.length).toBeLessThanOrEqual(10)
      seen.push(...page.entries.map((entry) => entry.message!.id))
      states.push(...page.entries.map((entry) => entry.state))
      if (page.next === null) break
      from = page.next
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(ids)
    expect(states).toEqual([
      ...Array<string>(12).fill('delivered'),
      ...Array<string>(13).fill('pending'),
    ])
  })

  it('an empty page at the end says so with next null', async () => {
    const team = tempTeam()
    expect(await team.mailbox.peek('alice')).toEqual({ entries: [], next: null })
    expect(await team.mailbox.peek('lead')).toEqual({ entries: [], next: null })
  })

  it('refuses a name that has no inbox', async () => {
    const team = tempTeam()
    await expect(team.mailbox.peek('user')).rejects.toThrow(/"user" has no inbox/)
    await expect(team.mailbox.peek('../x')).rejects.toMatchObject({ code: 'invalid-name' })
  })
})

describe('crashes and duplicates', () => {
  it('recordedUpTo fast-forwards the cursor: a crash after recording, before the commit, redelivers nothing', async () => {
    const team = tempTeam()
    sendMany(team, 3)
    const crashed = team.consumer('alice')
    const batch = await crashed.poll()
    const recorded = batch.end // the agent wrote the batch to its transcript, then died
    crashed.close()
    expect(readCursor(team.paths, 'alice')).toEqual({ segment: 1, offset: 0 })
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'after the crash' })
    const restarted = team.consumer('alice', { recordedUpTo: recorded })
    expect(readCursor(team.paths, 'alice')).toEqual(recorded)
    expect(contents(await restarted.poll())).toEqual(['after the crash'])
  })

  it('a crash before recording redelivers the same messages with the same ids', async () => {
    const team = tempTeam()
    const ids = sendMany(team, 3)
    const crashed = team.consumer('alice')
    await crashed.poll()
    crashed.close()
    const restarted = team.consumer('alice')
    expect((await restarted.poll()).deliveries.map((d) => d.message.id)).toEqual(ids)
  })

  it('recordedUpTo behind the cursor changes nothing', async () => {
    const team = tempTeam()
    sendMany(team, 2)
    const first = team.consumer('alice')
    const batch = await first.poll()
    first.commit(batch)
    first.close()
    team.consumer('alice', { recordedUpTo: { segment: 1, offset: 0 } })
    expect(readCursor(team.paths, 'alice')).toEqual(batch.end)
  })

  it('rejects a duplicate id in one batch, and an id already delivered (recentIds, or committed earlier)', async () => {
    const team = tempTeam()
    const line = (id: string, content: string) =>
      `${JSON.stringify({ v: 1, id, type: 'message', from: 'lead', content, timestamp: 1 })}\n`
    appendRaw(
      team.paths,
      'alice',
      line('x-1', 'first') + line('x-1', 'again') + line('x-0', 'seen before'),
    )
    const consumer = team.consumer('alice', { recentIds: ['x-0'] })
    const batch = await consumer.poll()
    expect(contents(batch)).toEqual(['first'])
    expect(batch.rejections.map((r) => r.reason)).toEqual([
      expect.stringMatching(/duplicate of message x-1, which was already delivered/),
      expect.stringMatching(/duplicate of message x-0/),
    ])
    consumer.commit(batch)
    appendRaw(team.paths, 'alice', line('x-1', 'third time'))
    const later = await consumer.poll()
    expect(later.deliveries).toEqual([])
    expect(later.rejections.map((r) => r.reason)).toEqual([
      expect.stringMatching(/duplicate of message x-1/),
    ])
    consumer.commit(later)
    const page = await team.mailbox.peek('alice')
    expect(page.entries.map((entry) => [entry.state, entry.message?.content])).toEqual([
      ['delivered', 'first'],
      ['rejected', 'again'],
      ['rejected', 'seen before'],
      ['rejected', 'third time'],
    ])
    expect(page.entries[1]?.reason).toMatch(/duplicate of message x-1/)
  })
})

describe('the cursor file', () => {
  it.each([
    ['not JSON', 'garbage'],
    ['an empty file', ''],
    ['a negative offset', '{"v":1,"segment":1,"offset":-5}'],
    ['segment 0', '{"v":1,"segment":0,"offset":0}'],
    ['an unknown version', '{"v":2,"segment":1,"offset":0}'],
    ['no version', '{"segment":1,"offset":0}'],
  ])('damaged (%s) gives a clear error, and the lock is not kept', async (_what, text) => {
    const team = tempTeam()
    sendMany(team, 1)
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    consumer.close()
    writeFileSync(team.paths.cursor('alice'), text)
    const error = thrown(() => team.mailbox.openConsumer('alice'))
    expect(error.code).toBe('file-invalid')
    expect(error.message).toContain(team.paths.cursor('alice'))
    expect(error.message).toMatch(/is damaged; move it aside/)
    await expect(team.mailbox.peek('alice')).rejects.toThrow(/is damaged/)
    writeFileSync(team.paths.cursor('alice'), '{"v":1,"segment":1,"offset":0}')
    expect(() => team.consumer('alice')).not.toThrow()
  })
})

describe('close', () => {
  it('releases the inbox and makes the consumer unusable', async () => {
    const team = tempTeam()
    const consumer = team.mailbox.openConsumer('alice')
    consumer.close()
    consumer.close()
    await expect(consumer.poll()).rejects.toThrow(/consumer of "alice" is closed/)
    expect(() => consumer.archive()).toThrow(/is closed/)
    expect(existsSync(team.paths.consumerLock('alice'))).toBe(false)
    expect(() => team.consumer('alice')).not.toThrow()
  })

  it('refuses to open a consumer of an inbox that cannot exist', () => {
    const team = tempTeam()
    expect(thrown(() => team.mailbox.openConsumer('user')).code).toBe('invalid-name')
    expect(thrown(() => team.mailbox.openConsumer('../x')).code).toBe('invalid-name')
    expect(existsSync(team.paths.mailboxState('user'))).toBe(false)
  })
})
