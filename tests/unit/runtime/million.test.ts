import { statSync, writeFileSync, mkdirSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { readCursor } from '../../../src/runtime/mailbox/consumer'
import * as lines from '../../../src/runtime/mailbox/lines'
import { tempTeam } from '../../helpers/workspace'

// Every scan the consumer and peek make goes through this spy, so the test can see where they read.
vi.mock('../../../src/runtime/mailbox/lines', async (importOriginal) => {
  const actual = await importOriginal<typeof lines>()
  return { ...actual, scanSegment: vi.fn(actual.scanSegment) }
})
const scanSegment = vi.mocked(lines.scanSegment)

const DELIVERED = 1_000_000

/** A million short, valid, already delivered lines, written straight to the live file. */
function bigInbox(path: string, directory: string): number {
  const parts: string[] = []
  for (let index = 0; index < DELIVERED; index++)
    parts.push(
      `{"v":1,"id":"old-${index}","type":"message","from":"lead","content":"${index}","timestamp":1}\n`,
    )
  mkdirSync(directory, { recursive: true })
  writeFileSync(path, parts.join(''))
  return statSync(path).size
}

describe('an inbox that holds a million delivered messages', () => {
  it('a poll reads only the bytes after the cursor; peek pages through it; a restart reads from the cursor', async () => {
    const team = tempTeam()
    const size = bigInbox(team.paths.inbox('alice'), team.paths.inboxDirectory)
    // Everything so far was delivered earlier: the consumer recorded it up to the end.
    const consumer = team.consumer('alice', { recordedUpTo: { segment: 1, offset: size } })
    expect(readCursor(team.paths, 'alice')).toEqual({ segment: 1, offset: size })

    const sent = ['new-1', 'new-2', 'new-3'].map((content) =>
      team.mailbox.send({ from: 'bob', to: 'alice', content }),
    )
    scanSegment.mockClear()
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message)).toEqual(sent)
    expect(batch.rejections).toEqual([])
    expect(batch.start).toEqual({ segment: 1, offset: size })
    expect(batch.deliveries[0]?.position).toEqual({ segment: 1, offset: size })
    expect(scanSegment).toHaveBeenCalledTimes(1)
    expect(scanSegment.mock.calls[0]?.[3]).toBe(size)
    consumer.commit(batch)

    // The pending view starts at the cursor too.
    scanSegment.mockClear()
    team.mailbox.send({ from: 'bob', to: 'alice', content: 'new-4' })
    const pending = await team.mailbox.peek('alice', { pendingOnly: true })
    expect(pending.entries.map((entry) => [entry.state, entry.message?.content])).toEqual([
      ['pending', 'new-4'],
    ])
    for (const call of scanSegment.mock.calls)
      expect(call[3]).toBeGreaterThanOrEqual(batch.end.offset)

    // The full view pages from the start, a page at a time, each page its own short read.
    scanSegment.mockClear()
    const first = await team.mailbox.peek('alice', { limit: 100 })
    expect(first.entries).toHaveLength(100)
    expect(first.entries.every((entry) => entry.state === 'delivered')).toBe(true)
    expect(first.entries[99]?.message?.id).toBe('old-99')
    const second = await team.mailbox.peek('alice', { from: first.next!, limit: 100 })
    expect(second.entries.map((entry) => entry.message?.id)).toEqual(
      Array.from({ length: 100 }, (_, index) => `old-${100 + index}`),
    )
    expect(scanSegment.mock.calls.map((call) => call[3])).toEqual([0, first.next!.offset])

    // And the last page, reached from a position near the end, ends with the new messages.
    const tail = await team.mailbox.peek('alice', { from: batch.deliveries[0]!.position })
    expect(tail.next).toBeNull()
    expect(tail.entries.map((entry) => [entry.state, entry.message?.content])).toEqual([
      ['delivered', 'new-1'],
      ['delivered', 'new-2'],
      ['delivered', 'new-3'],
      ['pending', 'new-4'],
    ])

    // A consumer opened on it later (a restart) reads from the cursor only.
    consumer.close()
    const restarted = team.consumer('alice')
    scanSegment.mockClear()
    const again = await restarted.poll()
    expect(again.deliveries.map((delivery) => delivery.message.content)).toEqual(['new-4'])
    expect(scanSegment.mock.calls.map((call) => call[3])).toEqual([batch.end.offset])
  })
})
