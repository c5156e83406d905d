import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Roster } from '../../../src/runtime/roster/roster'
import { cli, jsonLines } from '../../helpers/cli'
import { appendRaw, s09Line, tempTeam, tempWorkspace } from '../../helpers/workspace'

describe('agent-teams send', () => {
  it('appends a message from "user" by default and says so', async () => {
    const team = tempTeam()
    const result = await cli(['send', 'alice', 'hello there', '--workspace', team.dir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Sent message m-[0-9a-z]+ to alice\n$/)
    const line = JSON.parse(readFileSync(team.paths.inbox('alice'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(line).toMatchObject({
      v: 1,
      type: 'message',
      from: 'user',
      to: 'alice',
      content: 'hello there',
    })
    expect(result.stdout).toContain(String(line.id))
  })

  it('--json prints the message as written; --from and --type are honoured', async () => {
    const team = tempTeam()
    const result = await cli([
      'send',
      'bob',
      'please stop',
      '--from',
      'lead',
      '--type',
      'shutdown_request',
      '--json',
      '--workspace',
      team.dir,
    ])
    expect(result.code).toBe(0)
    const [printed] = jsonLines(result)
    expect(printed).toMatchObject({
      type: 'shutdown_request',
      from: 'lead',
      to: 'bob',
      content: 'please stop',
      id: expect.stringMatching(/^m-/),
    })
    expect(typeof printed?.timestamp).toBe('number')
    const written = JSON.parse(readFileSync(team.paths.inbox('bob'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(written).toMatchObject({ ...printed, v: 1 })
  })

  it('to the lead works on a workspace with no roster at all', async () => {
    const { dir, paths } = tempWorkspace()
    expect((await cli(['send', 'lead', 'hi', '--workspace', dir])).code).toBe(0)
    expect(readFileSync(paths.inbox('lead'), 'utf8')).toMatch(/"content":"hi"/)
  })
})

describe('agent-teams broadcast', () => {
  it('sends to every member but the sender, and to the lead; --json gives the count', async () => {
    const team = tempTeam(['alice', 'bob', 'carol'])
    const result = await cli([
      'broadcast',
      'standup in 5',
      '--from',
      'alice',
      '--json',
      '--workspace',
      team.dir,
    ])
    expect(result.code).toBe(0)
    const [printed] = jsonLines(result) as [
      { count: number; messages: { to: string; type: string; from: string }[] },
    ]
    expect(printed.count).toBe(3)
    expect(printed.messages.map((message) => message.to).sort()).toEqual(['bob', 'carol', 'lead'])
    expect(
      printed.messages.every((message) => message.type === 'broadcast' && message.from === 'alice'),
    ).toBe(true)
    expect(existsSync(team.paths.inbox('alice'))).toBe(false)
  })

  it('says how many it reached', async () => {
    const team = tempTeam(['alice', 'bob'])
    const result = await cli(['broadcast', 'hi all', '--workspace', team.dir])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Broadcast to 3 recipients: /)
    expect(result.stdout).toMatch(/lead/)
  })
})

describe('agent-teams inbox', () => {
  it('lists pending messages without consuming them; --all shows every state', async () => {
    const team = tempTeam()
    for (const content of ['one', 'two'])
      await cli(['send', 'alice', content, '--workspace', team.dir])
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    consumer.commit({
      ...batch,
      deliveries: batch.deliveries.slice(0, 1),
      end: batch.deliveries[1]!.position,
    })
    consumer.close()
    appendRaw(team.paths, 'alice', 'garbage\n')
    await cli(['send', 'alice', 'three', '--workspace', team.dir])

    const pending = await cli(['inbox', 'alice', '--json', '--workspace', team.dir])
    expect(pending.code).toBe(0)
    expect(
      jsonLines(pending).map((entry) => [
        entry.state,
        (entry.message as { content: string }).content,
      ]),
    ).toEqual([
      ['pending', 'two'],
      ['pending', 'three'],
    ])
    const all = await cli(['inbox', 'alice', '--all', '--json', '--workspace', team.dir])
    const entries = jsonLines(all)
    expect(entries.map((entry) => entry.state)).toEqual([
      'delivered',
      'pending',
      'rejected',
      'pending',
    ])
    expect(entries[2]?.reason).toMatch(/not valid JSON/)
    expect(entries[0]?.position).toEqual({ segment: 1, offset: 0 })
    // Still pending: inbox consumed nothing.
    expect(
      jsonLines(await cli(['inbox', 'alice', '--json', '--workspace', team.dir])),
    ).toHaveLength(2)
  })

  it('prints a readable listing, and says when there is nothing', async () => {
    const team = tempTeam()
    expect((await cli(['inbox', 'alice', '--workspace', team.dir])).stdout).toBe(
      'No pending messages for alice.\n',
    )
    expect((await cli(['inbox', 'alice', '--all', '--workspace', team.dir])).stdout).toBe(
      'The inbox of alice is empty.\n',
    )
    await cli(['send', 'alice', 'line one\nline two', '--from', 'bob', '--workspace', team.dir])
    const listing = await cli(['inbox', 'alice', '--workspace', team.dir])
    expect(listing.stdout).toMatch(
      /^\[pending\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ bob -> alice message m-\S+\n {4}line one\n {4}line two\n$/,
    )
  })

  it('--limit shows at most that many', async () => {
    const team = tempTeam()
    for (let index = 0; index < 5; index++) appendRaw(team.paths, 'alice', s09Line(`n${index}`))
    const result = await cli([
      'inbox',
      'alice',
      '--all',
      '--limit',
      '2',
      '--json',
      '--workspace',
      team.dir,
    ])
    expect(
      jsonLines(result).map((entry) => (entry.message as { content: string }).content),
    ).toEqual(['n0', 'n1'])
  })
})

describe('agent-teams drain', () => {
  it('prints one JSON object a line, each with its id; a second drain prints nothing', async () => {
    const team = tempTeam()
    await cli(['send', 'alice', 'first', '--workspace', team.dir])
    appendRaw(team.paths, 'alice', s09Line('from s09', 'bob'))
    await cli([
      'send',
      'alice',
      'third',
      '--from',
      'lead',
      '--type',
      'plan_approval_response',
      '--workspace',
      team.dir,
    ])
    const result = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const messages = jsonLines(result)
    expect(messages.map((message) => message.content)).toEqual(['first', 'from s09', 'third'])
    for (const message of messages) expect(message.id).toEqual(expect.any(String))
    expect(messages[1]).toMatchObject({
      id: expect.stringMatching(/^p1-\d+$/),
      from: 'bob',
      to: 'alice',
      type: 'message',
    })
    expect(new Set(messages.map((message) => message.id)).size).toBe(3)
    const again = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe('')
    expect(
      jsonLines(await cli(['inbox', 'alice', '--all', '--json', '--workspace', team.dir])).map(
        (entry) => entry.state,
      ),
    ).toEqual(['delivered', 'delivered', 'delivered'])
  })

  it('sets bad lines aside, saying so on stderr, and drains the rest', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', `[1, 2]\n${s09Line('good')}`)
    const result = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(result.code).toBe(0)
    expect(jsonLines(result).map((message) => message.content)).toEqual(['good'])
    expect(result.stderr).toMatch(
      /set aside the line at p1-0 of alice's inbox: not a JSON object \(found an array\)/,
    )
    expect(readFileSync(team.paths.rejected('alice'), 'utf8')).toMatch(/not a JSON object/)
  })
})

describe('agent-teams archive', () => {
  it('moves the delivered messages aside; inbox --all still shows them', async () => {
    const team = tempTeam()
    await cli(['send', 'alice', 'old', '--workspace', team.dir])
    await cli(['drain', 'alice', '--workspace', team.dir])
    const result = await cli(['archive', 'alice', '--json', '--workspace', team.dir])
    expect(result.code).toBe(0)
    expect(jsonLines(result)).toEqual([{ archived_segment: 1 }])
    expect(readdirSync(team.paths.archiveDirectory('alice'))).toEqual(['000001.jsonl'])
    expect(existsSync(team.paths.inbox('alice'))).toBe(false)
    await cli(['send', 'alice', 'new', '--workspace', team.dir])
    const all = jsonLines(await cli(['inbox', 'alice', '--all', '--json', '--workspace', team.dir]))
    expect(
      all.map((entry) => [entry.state, (entry.message as { content: string }).content]),
    ).toEqual([
      ['delivered', 'old'],
      ['pending', 'new'],
    ])
    expect((await cli(['archive', 'alice', '--workspace', team.dir])).stdout).toMatch(
      /^Archived the inbox of alice as segment 2/,
    )
  })
})

describe('agent-teams roster', () => {
  it("shows the team like the tutorial's /team, and as JSON", async () => {
    const team = tempTeam(['alice', 'bob'])
    team.roster.setStatus('bob', 'working')
    const text = await cli(['roster', '--workspace', team.dir])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(
      "Team: default\n  alice (alice's role): idle\n  bob (bob's role): working\n",
    )
    const json = await cli(['roster', '--json', '--workspace', team.dir])
    expect(jsonLines(json)[0]).toMatchObject({
      team_name: 'default',
      members: [
        { name: 'alice', status: 'idle' },
        { name: 'bob', status: 'working' },
      ],
    })
  })

  it('on a fresh workspace shows an empty team and creates nothing', async () => {
    const { dir, paths } = tempWorkspace()
    const result = await cli(['roster', '--workspace', dir])
    expect(result.stdout).toBe('Team: default\n  No teammates.\n')
    expect(existsSync(paths.root)).toBe(false)
  })

  it('--reset keeps an unreadable config.json beside a new empty one', async () => {
    const { dir, paths } = tempWorkspace()
    Roster.open(paths)
    writeFileSync(paths.config, '{"team_name": ')
    const broken = await cli(['roster', '--workspace', dir])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain(`${paths.config}:1:15: not valid JSON`)
    expect(broken.stderr).toMatch(/reset the roster/)
    const reset = await cli(['roster', '--reset', '--yes', '--workspace', dir])
    expect(reset.code).toBe(0)
    const keptAs = /the old file is kept as (\S+)/.exec(reset.stdout)?.[1]
    expect(keptAs).toMatch(/config\.json\.invalid-/)
    expect(readFileSync(keptAs!, 'utf8')).toBe('{"team_name": ')
    expect((await cli(['roster', '--workspace', dir])).stdout).toBe(
      'Team: default\n  No teammates.\n',
    )
  })
})
