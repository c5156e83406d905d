import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MAX_LINE_BYTES } from '../../../src/shared/messages'
import { appendRaw, s09Line, tempTeam, type Team } from '../../helpers/workspace'

interface RejectedRecord {
  v: number
  segment: number
  offset: number
  reason: string
  raw_base64: string
  timestamp: number
}

function rejectedLog(team: Team, name = 'alice'): RejectedRecord[] {
  const path = team.paths.rejected(name)
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RejectedRecord)
}

const good = { type: 'message', from: 'lead', content: 'ok', timestamp: 1 }
const json = (record: unknown) => JSON.stringify(record)

const badLines: [string, string | Buffer, RegExp][] = [
  ['not JSON', '{"type": "message", "from": "lead"', /^not valid JSON/],
  ['plain text', 'hello bob, it is alice', /^not valid JSON/],
  ['a JSON array', json([good]), /not a JSON object \(found an array\)/],
  ['a JSON number', '42', /not a JSON object \(found number 42\)/],
  ['JSON null', 'null', /not a JSON object \(found null\)/],
  ['a missing type', json({ ...good, type: undefined }), /field "type" must be one of/],
  [
    'a missing from',
    json({ ...good, from: undefined }),
    /field "from" must be an agent name \(found nothing\)/,
  ],
  [
    'a missing content',
    json({ ...good, content: undefined }),
    /field "content" must be a string \(found nothing\)/,
  ],
  [
    'a missing timestamp',
    json({ ...good, timestamp: undefined }),
    /field "timestamp" must be a number \(found nothing\)/,
  ],
  [
    'a number as content',
    json({ ...good, content: 12 }),
    /field "content" must be a string \(found number 12\)/,
  ],
  [
    'a string timestamp',
    json({ ...good, timestamp: 'now' }),
    /field "timestamp" must be a number \(found "now"\)/,
  ],
  [
    'an invalid from',
    json({ ...good, from: 'Alice' }),
    /field "from" must be an agent name \(found "Alice"\)/,
  ],
  [
    'an unknown type',
    json({ ...good, type: 'gossip' }),
    /field "type" must be one of message, broadcast, shutdown_request, shutdown_response, plan_approval_response \(found "gossip"\)/,
  ],
  [
    'a top-level __proto__ key',
    '{"__proto__":{"admin":true},"type":"message","from":"lead","content":"x","timestamp":1}',
    /"__proto__" is not allowed/,
  ],
  [
    'a nested __proto__ key',
    '{"type":"message","from":"lead","content":"x","timestamp":1,"meta":{"__proto__":{"admin":true}}}',
    /"__proto__" is not allowed/,
  ],
  [
    'a unicode-escaped __proto__ key',
    '{"\\u005f_proto__":{"admin":true},"type":"message","from":"lead","content":"x","timestamp":1}',
    /"__proto__" is not allowed/,
  ],
  [
    'a version newer than 1',
    json({ ...good, v: 2 }),
    /format version 2 is newer than this app reads/,
  ],
  [
    'a `to` naming another inbox',
    json({ ...good, to: 'bob' }),
    /addressed to "bob" but found in the inbox of "alice"/,
  ],
  [
    'invalid UTF-8',
    Buffer.concat([
      Buffer.from('{"type":"message","from":"lead","content":"'),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from('","timestamp":1}'),
    ]),
    /^not valid UTF-8$/,
  ],
  ['a lone UTF-8 continuation byte', Buffer.from([0x7b, 0x80, 0x7d]), /^not valid UTF-8$/],
]

describe('a complete line that is not a valid message', () => {
  it.each(badLines)(
    'with %s is rejected with its reason, logged, and reading goes on',
    async (_what, bad, reason) => {
      const team = tempTeam()
      const before = s09Line('before')
      const raw = Buffer.isBuffer(bad) ? bad : Buffer.from(bad)
      appendRaw(
        team.paths,
        'alice',
        Buffer.concat([Buffer.from(before), raw, Buffer.from('\n'), Buffer.from(s09Line('after'))]),
      )
      const consumer = team.consumer('alice')
      const batch = await consumer.poll()
      expect(batch.deliveries.map((delivery) => delivery.message.content)).toEqual([
        'before',
        'after',
      ])
      expect(batch.rejections).toHaveLength(1)
      const [rejection] = batch.rejections
      expect(rejection?.reason).toMatch(reason)
      expect(rejection?.position).toEqual({ segment: 1, offset: before.length })
      expect(rejection?.inbox).toBe('alice')
      expect(rejectedLog(team)).toEqual([])
      consumer.commit(batch)
      const log = rejectedLog(team)
      expect(log).toHaveLength(1)
      expect(log[0]).toMatchObject({
        v: 1,
        segment: 1,
        offset: before.length,
        reason: rejection?.reason,
      })
      expect(Buffer.from(log[0]!.raw_base64, 'base64')).toEqual(raw)
      expect(typeof log[0]?.timestamp).toBe('number')
      const page = await team.mailbox.peek('alice')
      expect(page.entries.map((entry) => entry.state)).toEqual([
        'delivered',
        'rejected',
        'delivered',
      ])
      expect(page.entries[1]?.reason).toMatch(reason)
      expect(await consumer.poll()).toMatchObject({ deliveries: [], rejections: [] })
    },
  )

  it('over 1 MiB is rejected (with a preview, not the whole line) and reading goes on', async () => {
    const team = tempTeam()
    const huge = json({ ...good, content: 'h'.repeat(MAX_LINE_BYTES) })
    appendRaw(team.paths, 'alice', `${huge}\n${s09Line('after')}`)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message.content)).toEqual(['after'])
    expect(batch.rejections.map((rejection) => rejection.reason)).toEqual([
      expect.stringMatching(
        new RegExp(`line of ${Buffer.byteLength(huge)} bytes is over the 1048576-byte limit`),
      ),
    ])
    consumer.commit(batch)
    const log = rejectedLog(team)
    expect(log).toHaveLength(1)
    expect(Buffer.from(log[0]!.raw_base64, 'base64').toString()).toBe(huge.slice(0, 4096))
  })

  it('every bad line of a file full of them is logged once, in order, and every good one delivered', async () => {
    const team = tempTeam()
    const chunks: Buffer[] = []
    for (const [, bad] of badLines)
      chunks.push(
        Buffer.isBuffer(bad) ? bad : Buffer.from(bad),
        Buffer.from('\n'),
        Buffer.from(s09Line('ok')),
      )
    appendRaw(team.paths, 'alice', Buffer.concat(chunks))
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries).toHaveLength(badLines.length)
    consumer.commit(batch)
    const log = rejectedLog(team)
    expect(log.map((record) => record.reason)).toEqual(
      badLines.map(([, , reason]) => expect.stringMatching(reason)),
    )
    const offsets = log.map((record) => record.offset)
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets)
  })

  it('never edits the inbox file: the bad line stays where it was', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', `oops\n${s09Line('fine')}`)
    const before = readFileSync(team.paths.inbox('alice'))
    const consumer = team.consumer('alice')
    consumer.commit(await consumer.poll())
    expect(readFileSync(team.paths.inbox('alice'))).toEqual(before)
  })
})
