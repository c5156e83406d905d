import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Clock } from '../../../src/runtime/system/clock'
import type { Batch, InboxConsumer } from '../../../src/runtime/mailbox/consumer'
import { SEAL_GRACE_MS } from '../../../src/runtime/mailbox/segments'
import { appendRaw, listFiles, s09Line, tempTeam, type Team } from '../../helpers/workspace'

/** Makes each test line about 270 bytes, so that a few MiB take few lines. */
const PAD = 'x'.repeat(200)

function send(team: Team, ...contents: string[]): string[] {
  return contents.map((content) => team.mailbox.send({ from: 'lead', to: 'alice', content }).id)
}

/** Polls and commits until nothing more comes; returns every delivered content, and the batches. */
async function drainAll(
  consumer: InboxConsumer,
  maxBytes?: number,
): Promise<{ contents: string[]; batches: Batch[] }> {
  const contents: string[] = []
  const batches: Batch[] = []
  for (let round = 0; round < 1000; round++) {
    const batch = await consumer.poll(maxBytes)
    batches.push(batch)
    consumer.commit(batch)
    contents.push(...batch.deliveries.map((delivery) => delivery.message.content))
    if (
      batch.deliveries.length === 0 &&
      batch.rejections.length === 0 &&
      batch.end.segment === batch.start.segment
    )
      break
  }
  return { contents, batches }
}

describe('archive', () => {
  it('moves the live file into the archive; new sends start a new live file', async () => {
    const team = tempTeam()
    send(team, 'a', 'b')
    const before = readFileSync(team.paths.inbox('alice'))
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    expect(consumer.archive()).toEqual({ segment: 1 })
    expect(existsSync(team.paths.inbox('alice'))).toBe(false)
    expect(readFileSync(team.paths.archivedSegment('alice', 1))).toEqual(before)
    expect(listFiles(team.paths.archiveDirectory('alice'))).toEqual(['000001.jsonl'])
    send(team, 'c')
    expect(readFileSync(team.paths.inbox('alice'), 'utf8')).toMatch(/"content":"c"/)
    const { contents, batches } = await drainAll(consumer)
    expect(contents).toEqual(['c'])
    expect(batches.flatMap((batch) => batch.rejections)).toEqual([])
    expect(consumer.position.segment).toBe(2)
  })

  it('pending lines in the archived file are still delivered, before the new ones', async () => {
    const team = tempTeam()
    send(team, 'delivered')
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    send(team, 'pending-1', 'pending-2')
    consumer.archive()
    send(team, 'new')
    expect((await drainAll(consumer)).contents).toEqual(['pending-1', 'pending-2', 'new'])
  })

  it('archiving an inbox with no live file changes nothing', () => {
    const team = tempTeam()
    const consumer = team.consumer('alice')
    expect(consumer.archive()).toEqual({ segment: 0 })
    expect(existsSync(team.paths.archiveDirectory('alice'))).toBe(true)
    expect(listFiles(team.paths.archiveDirectory('alice'))).toEqual([])
  })

  it('peek pages across archived segments and the live file with nothing lost', async () => {
    const team = tempTeam()
    const consumer = team.consumer('alice')
    const ids = [...send(team, 's1-a', 's1-b', 's1-c')]
    consumer.commit(await consumer.poll())
    consumer.archive()
    ids.push(...send(team, 's2-a', 's2-b'))
    consumer.archive()
    ids.push(...send(team, 's3-a', 's3-b'))
    await drainAll(consumer)
    ids.push(...send(team, 's3-pending'))
    const seen: { id: string; segment: number; state: string }[] = []
    let from = undefined
    for (let pages = 0; pages < 20; pages++) {
      const page = await team.mailbox.peek('alice', { from, limit: 2 })
      for (const entry of page.entries)
        seen.push({ id: entry.message!.id, segment: entry.position.segment, state: entry.state })
      if (page.next === null) break
      from = page.next
    }
    expect(seen.map((entry) => entry.id)).toEqual(ids)
    expect(seen.map((entry) => entry.segment)).toEqual([1, 1, 1, 2, 2, 3, 3, 3])
    expect(seen.map((entry) => entry.state)).toEqual([
      ...Array<string>(7).fill('delivered'),
      'pending',
    ])
    const all = await team.mailbox.peek('alice')
    expect(all.entries.map((entry) => entry.message!.id)).toEqual(ids)
  })

  it('a new consumer finds the archive and the cursor where they were', async () => {
    const team = tempTeam()
    const first = team.consumer('alice')
    send(team, 'one')
    first.commit(await first.poll())
    first.archive()
    send(team, 'two')
    first.close()
    const second = team.consumer('alice')
    expect((await drainAll(second)).contents).toEqual(['two'])
    expect(second.archive()).toEqual({ segment: 2 })
    expect(listFiles(team.paths.archiveDirectory('alice'))).toEqual([
      '000001.jsonl',
      '000002.jsonl',
    ])
  })

  it(`keeps reading an archived segment for ${SEAL_GRACE_MS} ms after its last change: a late append is delivered`, async () => {
    let now = 0
    const clock: Clock = { now: () => now }
    const team = tempTeam(['alice'], { clock })
    send(team, 'before')
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    consumer.archive()
    // A sender that opened the live file just before the move appends to the archived file.
    appendFileSync(team.paths.archivedSegment('alice', 1), s09Line('late'))
    send(team, 'live')
    const changed = statSync(team.paths.archivedSegment('alice', 1)).ctimeMs
    now = changed + SEAL_GRACE_MS / 2
    const open = await drainAll(consumer)
    expect(open.contents).toEqual(['late'])
    expect(consumer.position.segment).toBe(1)
    now = changed + SEAL_GRACE_MS
    expect((await drainAll(consumer)).contents).toEqual(['live'])
    expect(consumer.position.segment).toBe(2)
  })

  it('reports a torn line left at the end of a sealed archived segment, and moves on', async () => {
    const team = tempTeam()
    send(team, 'whole')
    const consumer = team.consumer('alice')
    appendRaw(team.paths, 'alice', s09Line('torn').slice(0, 15))
    consumer.archive()
    send(team, 'live')
    const { contents, batches } = await drainAll(consumer)
    expect(contents).toEqual(['whole', 'live'])
    expect(
      batches.flatMap((batch) => batch.rejections.map((rejection) => rejection.reason)),
    ).toEqual([expect.stringMatching(/torn line: the archived segment ends without a newline/)])
  })

  it('delivers every pending message of an archived segment larger than one poll reads', async () => {
    const team = tempTeam()
    // ~11 MiB of pending messages: more than poll() reads at once (8 MiB by default).
    const count = 45_000
    const lines: string[] = []
    for (let index = 0; index < count; index++) lines.push(s09Line(`n${index}|${PAD}`))
    appendRaw(team.paths, 'alice', lines.join(''))
    expect(statSync(team.paths.inbox('alice')).size).toBeGreaterThan(10 * 1024 * 1024)
    const consumer = team.consumer('alice')
    consumer.archive()
    send(team, 'live')
    const { contents, batches } = await drainAll(consumer)
    expect(
      batches.flatMap((batch) => batch.rejections.map((rejection) => rejection.reason)),
    ).toEqual([])
    expect(contents).toHaveLength(count + 1)
    expect(contents[count - 1]).toBe(`n${count - 1}|${PAD}`)
    expect(contents[count]).toBe('live')
  })

  it('delivers every pending message of an archived segment polled in small batches (poll(maxBytes))', async () => {
    const team = tempTeam()
    const count = 10_000
    const lines: string[] = []
    for (let index = 0; index < count; index++) lines.push(s09Line(`n${index}|${PAD}`))
    appendRaw(team.paths, 'alice', lines.join(''))
    expect(statSync(team.paths.inbox('alice')).size).toBeGreaterThan(2 * 1024 * 1024)
    const consumer = team.consumer('alice')
    consumer.archive()
    const { contents, batches } = await drainAll(consumer, 1024 * 1024)
    expect(
      batches.flatMap((batch) => batch.rejections.map((rejection) => rejection.reason)),
    ).toEqual([])
    expect(new Set(contents).size).toBe(count)
  })
})
