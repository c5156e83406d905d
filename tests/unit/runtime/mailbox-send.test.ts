import { existsSync, readFileSync, rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Mailbox, type SendRequest } from '../../../src/runtime/mailbox/mailbox'
import { TeamError } from '../../../src/shared/errors'
import { MAX_LINE_BYTES, MESSAGE_TYPES } from '../../../src/shared/messages'
import { FAR_FUTURE_MS, listFiles, tempTeam, type Team } from '../../helpers/workspace'

function sendError(team: Team, request: SendRequest): TeamError {
  try {
    team.mailbox.send(request)
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error(`expected send(${JSON.stringify(request)}) to throw`)
}

function inboxLines(team: Team, name: string): Record<string, unknown>[] {
  const path = team.paths.inbox(name)
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('send', () => {
  it.each(MESSAGE_TYPES)('accepts type %s and appends one complete line', (type) => {
    const team = tempTeam()
    const message = team.mailbox.send({ from: 'lead', to: 'alice', content: 'hello', type })
    expect(message).toMatchObject({ type, from: 'lead', to: 'alice', content: 'hello' })
    const raw = readFileSync(team.paths.inbox('alice'), 'utf8')
    expect(raw.endsWith('\n')).toBe(true)
    expect(raw.split('\n')).toHaveLength(2)
    expect(JSON.parse(raw)).toEqual({
      v: 1,
      id: message.id,
      type,
      from: 'lead',
      to: 'alice',
      content: 'hello',
      timestamp: FAR_FUTURE_MS / 1000,
    })
  })

  it('defaults to type "message"', () => {
    const team = tempTeam()
    expect(team.mailbox.send({ from: 'user', to: 'lead', content: 'x' }).type).toBe('message')
  })

  it('refuses an unknown type, naming every valid one, and writes nothing', () => {
    const team = tempTeam()
    const error = sendError(team, { from: 'lead', to: 'alice', content: 'x', type: 'memo' })
    expect(error.code).toBe('invalid-message-type')
    expect(error.message).toMatch(/Invalid message type "memo"/)
    for (const type of MESSAGE_TYPES) expect(error.message).toContain(type)
    expect(listFiles(team.paths.inboxDirectory)).toEqual([])
  })

  it.each([
    ['../x', 'invalid-name', /Invalid recipient: .*start with a lowercase letter/],
    ['Bob', 'invalid-name', /Invalid recipient: .*start with a lowercase letter/],
    ['a/b', 'invalid-name', /Invalid recipient: .*only lowercase letters/],
    ['', 'invalid-name', /Invalid recipient: the name is empty/],
    ['a'.repeat(33), 'invalid-name', /Invalid recipient: .*longer than 32/],
    [
      'carol',
      'unknown-recipient',
      /Unknown recipient "carol": not on the team's roster \(members: alice, bob;/,
    ],
    ['user', 'unknown-recipient', /"user" is the person, who has no inbox/],
  ])('refuses recipient %j (%s) and creates no file', (to, code, message) => {
    const team = tempTeam()
    const error = sendError(team, { from: 'lead', to, content: 'x' })
    expect(error.code).toBe(code)
    expect(error.message).toMatch(message)
    expect(listFiles(team.paths.inboxDirectory)).toEqual([])
    expect(existsSync(team.paths.inbox(to))).toBe(false)
  })

  it('says how to fix an unknown recipient on an empty roster', () => {
    const team = tempTeam([])
    const error = sendError(team, { from: 'lead', to: 'alice', content: 'x' })
    expect(error.message).toMatch(/members: none yet/)
    expect(error.message).toMatch(/Spawn it first, or check the spelling/)
    expect(existsSync(team.paths.inboxDirectory)).toBe(false)
  })

  it('the lead is always a valid recipient, even with nobody on the roster', () => {
    const team = tempTeam([])
    team.mailbox.send({ from: 'user', to: 'lead', content: 'hi lead' })
    expect(inboxLines(team, 'lead')).toHaveLength(1)
  })

  it('reads the roster at each send: a member spawned later can be written to', () => {
    const team = tempTeam(['alice'])
    expect(sendError(team, { from: 'lead', to: 'carol', content: 'x' }).code).toBe(
      'unknown-recipient',
    )
    team.roster.update((draft) => {
      draft.members.push({ name: 'carol', role: 'writer', status: 'idle' })
    })
    team.mailbox.send({ from: 'lead', to: 'carol', content: 'welcome' })
    expect(inboxLines(team, 'carol')).toHaveLength(1)
  })

  it.each([
    ['Bob', 'invalid-name', /Invalid sender: .*start with a lowercase letter/],
    ['../x', 'invalid-name', /Invalid sender/],
    ['', 'invalid-name', /Invalid sender: the name is empty/],
    ['carol', 'unknown-agent', /Unknown sender "carol": not on the team's roster/],
  ])('refuses sender %j and writes nothing', (from, code, message) => {
    const team = tempTeam()
    const error = sendError(team, { from, to: 'alice', content: 'x' })
    expect(error.code).toBe(code)
    expect(error.message).toMatch(message)
    expect(listFiles(team.paths.inboxDirectory)).toEqual([])
  })

  it.each(['user', 'lead', 'bob'])('accepts sender %s and sets `from` from the request', (from) => {
    const team = tempTeam()
    const message = team.mailbox.send({ from, to: 'alice', content: 'x' })
    expect(message.from).toBe(from)
    expect(inboxLines(team, 'alice')[0]?.from).toBe(from)
  })

  it('refuses content that is not a string', () => {
    const team = tempTeam()
    const request = { from: 'lead', to: 'alice', content: 42 } as unknown as SendRequest
    const error = sendError(team, request)
    expect(error.code).toBe('invalid-message')
    expect(error.message).toMatch(/content of a message must be a string/)
    expect(listFiles(team.paths.inboxDirectory)).toEqual([])
  })

  it('keeps extra fields, written beside the core ones and read back as they were', async () => {
    const team = tempTeam()
    const extra = { request_id: 'req-9', approve: true, details: { files: ['a.ts'], n: 2 } }
    const sent = team.mailbox.send({
      from: 'lead',
      to: 'alice',
      content: 'plan ok',
      type: 'plan_approval_response',
      extra,
    })
    expect(sent.extra).toEqual(extra)
    expect(inboxLines(team, 'alice')[0]).toMatchObject(extra)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message)).toEqual([sent])
  })

  it('drops extras whose value is undefined', () => {
    const team = tempTeam()
    const sent = team.mailbox.send({
      from: 'lead',
      to: 'alice',
      content: 'x',
      extra: { a: undefined, b: 1 },
    })
    expect(sent.extra).toEqual({ b: 1 })
  })

  it.each(['v', 'id', 'type', 'from', 'to', 'content', 'timestamp', '__proto__'])(
    'refuses the reserved extra key %s',
    (key) => {
      const team = tempTeam()
      const extra = JSON.parse(`{${JSON.stringify(key)}: "x"}`) as Record<string, unknown>
      expect(Object.keys(extra)).toEqual([key])
      const error = sendError(team, { from: 'lead', to: 'alice', content: 'x', extra })
      expect(error.code).toBe('invalid-message')
      expect(error.message).toMatch(new RegExp(`extra field "${key}" is reserved`))
      expect(listFiles(team.paths.inboxDirectory)).toEqual([])
    },
  )

  it("refuses a message over 1 MiB with 'message-too-large' and appends nothing", () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'first' })
    const before = readFileSync(team.paths.inbox('alice'))
    const error = sendError(team, {
      from: 'lead',
      to: 'alice',
      content: 'x'.repeat(MAX_LINE_BYTES),
    })
    expect(error.code).toBe('message-too-large')
    expect(error.message).toMatch(/at most 1048576 bytes/)
    expect(error.message).toMatch(/Send a path to a file instead/)
    expect(readFileSync(team.paths.inbox('alice'))).toEqual(before)
  })

  it('counts the size in bytes, not characters, and accepts a line of exactly 1 MiB', () => {
    const team = tempTeam()
    const overhead = Buffer.byteLength(
      JSON.stringify({
        v: 1,
        id: 'm-1',
        type: 'message',
        from: 'lead',
        to: 'alice',
        content: '',
        timestamp: FAR_FUTURE_MS / 1000,
      }),
    )
    const fits = team.mailbox.send({
      from: 'lead',
      to: 'alice',
      content: 'y'.repeat(MAX_LINE_BYTES - overhead),
    })
    expect(Buffer.byteLength(readFileSync(team.paths.inbox('alice'), 'utf8')) - 1).toBe(
      MAX_LINE_BYTES,
    )
    expect(fits.id).toBe('m-1')
    // 'é' is two bytes: half a MiB of them is over the limit although it is half as many characters.
    const error = sendError(team, {
      from: 'lead',
      to: 'alice',
      content: 'é'.repeat(MAX_LINE_BYTES / 2),
    })
    expect(error.code).toBe('message-too-large')
  })

  it('makes the inbox folder again when it was removed since the last send (a reset)', () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'before' })
    rmSync(team.paths.inboxDirectory, { recursive: true })
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'after' })
    team.mailbox.send({ from: 'lead', to: 'bob', content: 'to bob' })
    expect(inboxLines(team, 'alice').map((line) => line.content)).toEqual(['after'])
    expect(inboxLines(team, 'bob').map((line) => line.content)).toEqual(['to bob'])
  })

  it('makes a new inbox file when the old one was moved away', () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'first' })
    rmSync(team.paths.inbox('alice'))
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'second' })
    expect(inboxLines(team, 'alice').map((line) => line.content)).toEqual(['second'])
  })

  it('writes a line the reader parses back to the message sent, for plain and unusual content', async () => {
    const team = tempTeam()
    const contents = ['plain', 'a "quote" and a \\', 'café ☕ 😀', 'tab\tand\nnewline', '']
    const sent = contents.map((content) => team.mailbox.send({ from: 'bob', to: 'alice', content }))
    const batch = await team.consumer('alice').poll()
    expect(batch.deliveries.map((delivery) => delivery.message)).toEqual(sent)
  })

  it('gives every message its own id', () => {
    const team = tempTeam()
    const mailbox = new Mailbox(team.paths, { members: () => ['alice'] })
    const ids = new Set(
      Array.from(
        { length: 50 },
        () => mailbox.send({ from: 'lead', to: 'alice', content: 'x' }).id,
      ),
    )
    expect(ids.size).toBe(50)
  })
})

describe('broadcast', () => {
  it('sends to every member but the sender, and to the lead', () => {
    const team = tempTeam(['alice', 'bob', 'carol'])
    const messages = team.mailbox.broadcast({ from: 'alice', content: 'standup' })
    expect(messages.map((message) => message.to).sort()).toEqual(['bob', 'carol', 'lead'])
    expect(
      messages.every((message) => message.type === 'broadcast' && message.from === 'alice'),
    ).toBe(true)
    expect(inboxLines(team, 'alice')).toEqual([])
    for (const name of ['bob', 'carol', 'lead'])
      expect(inboxLines(team, name)).toEqual([
        expect.objectContaining({ type: 'broadcast', from: 'alice', content: 'standup' }),
      ])
  })

  it('from the lead: every member, and not the lead itself', () => {
    const team = tempTeam(['alice', 'bob', 'carol'])
    const messages = team.mailbox.broadcast({ from: 'lead', content: 'hello team' })
    expect(messages).toHaveLength(3)
    expect(messages.map((message) => message.to).sort()).toEqual(['alice', 'bob', 'carol'])
    expect(inboxLines(team, 'lead')).toEqual([])
  })

  it('from the user: the lead and every member', () => {
    const team = tempTeam(['alice', 'bob'])
    expect(
      team.mailbox
        .broadcast({ from: 'user', content: 'hi' })
        .map((m) => m.to)
        .sort(),
    ).toEqual(['alice', 'bob', 'lead'])
  })

  it('with an empty roster reaches the lead only; from the lead it reaches nobody', () => {
    const team = tempTeam([])
    expect(team.mailbox.broadcast({ from: 'user', content: 'x' }).map((m) => m.to)).toEqual([
      'lead',
    ])
    expect(team.mailbox.broadcast({ from: 'lead', content: 'x' })).toEqual([])
  })

  it('keeps extras on every copy and gives each copy its own id', () => {
    const team = tempTeam(['alice', 'bob'])
    const messages = team.mailbox.broadcast({
      from: 'lead',
      content: 'x',
      extra: { topic: 'release' },
    })
    expect(messages.every((message) => message.extra.topic === 'release')).toBe(true)
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length)
  })

  it('refuses a sender that is not a valid name or not on the roster, and writes nothing', () => {
    const team = tempTeam(['alice'])
    expect(() => team.mailbox.broadcast({ from: 'Alice', content: 'x' })).toThrow(/Invalid sender/)
    expect(() => team.mailbox.broadcast({ from: 'zed', content: 'x' })).toThrow(
      /Unknown sender "zed"/,
    )
    expect(listFiles(team.paths.inboxDirectory)).toEqual([])
  })
})
