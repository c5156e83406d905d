import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HELP } from '../../../src/cli/main'
import { MESSAGE_TYPES } from '../../../src/shared/messages'
import { cli } from '../../helpers/cli'
import { tempTeam } from '../../helpers/workspace'

describe('agent-teams usage', () => {
  it('--help and -h print the help on stdout and exit 0', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['send', '--help']]) {
      const result = await cli(args)
      expect(result.code).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout).toBe(`${HELP.trimEnd()}\n`)
    }
    for (const command of [
      'send <to> <content>',
      'broadcast <content>',
      'inbox <name>',
      'drain <name>',
      'archive <name>',
      'roster',
      '--workspace DIR',
      '--json',
    ])
      expect(HELP).toContain(command)
    for (const type of MESSAGE_TYPES) expect(HELP).toContain(type)
  })

  it('no command prints the help on stderr and exits 2', async () => {
    const result = await cli([])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^agent-teams — script a team/)
  })

  it('an unknown command exits 2, listing the commands', async () => {
    const result = await cli(['sned', 'alice', 'x'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /unknown command "sned"\. Commands: send, broadcast, inbox, drain, archive, roster, chat, demo, transcript, serve, stop, resume, shutdown, plan, requests, budget, spawn, model, queue, approve, deny, answer, profile, profiles\./,
    )
    expect(result.stderr).toMatch(/Run "agent-teams --help" for usage/)
  })

  it('an inherited property name is not a command', async () => {
    expect((await cli(['toString'])).code).toBe(2)
    expect((await cli(['constructor'])).stderr).toMatch(/unknown command "constructor"/)
  })

  it('an unknown option exits 2', async () => {
    const result = await cli(['send', 'alice', 'x', '--urgent'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/Unknown option '--urgent'/)
    expect(result.stderr).toMatch(/agent-teams --help/)
  })

  it.each([
    [['send'], /agent-teams send: expected <to> <content>, got 0 arguments/],
    [['send', 'alice'], /expected <to> <content>, got 1 argument\n/],
    [['send', 'alice', 'hello', 'world'], /got 3 arguments \(quote the content if it has spaces\)/],
    [['broadcast'], /agent-teams broadcast: expected <content>, got 0 arguments/],
    [
      ['broadcast', 'x', '--type', 'message'],
      /broadcast always sends type "broadcast"; drop --type/,
    ],
    [['inbox'], /agent-teams inbox: expected <name>/],
    [['inbox', 'alice', '--limit', 'ten'], /--limit takes a whole number, not "ten"/],
    [['inbox', 'alice', '--limit', '0'], /--limit must be at least 1/],
    [['drain'], /agent-teams drain: expected <name>/],
    [['archive'], /agent-teams archive: expected <name>/],
    [['roster', 'extra'], /agent-teams roster: takes no arguments/],
  ])('%j is a usage error: exit 2', async (args, message) => {
    const team = tempTeam()
    const result = await cli([...args, '--workspace', team.dir])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toMatch(/Run "agent-teams --help" for usage/)
  })
})

describe('agent-teams usage messages', () => {
  it('an option without its value exits 2', async () => {
    const result = await cli(['send', 'alice', '--workspace'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/Option '--workspace <value>' argument missing/)
  })

  it('roster with an argument says that it takes none', async () => {
    const result = await cli(['roster', 'alice'])
    expect(result.code).toBe(2)
    // Not "expected , got 1 argument": the message must say what to do.
    expect(result.stderr).not.toMatch(/expected , got/)
    expect(result.stderr).toMatch(/roster: .*no arguments/)
  })
})

describe('agent-teams errors', () => {
  it('an unknown recipient exits 1 with what to do, and creates no inbox', async () => {
    const team = tempTeam(['alice'])
    const result = await cli(['send', 'alcie', 'hi', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^agent-teams send: Unknown recipient "alcie": not on the team's roster \(members: alice;/,
    )
    expect(result.stderr).toMatch(/Spawn it first, or check the spelling/)
    expect(existsSync(team.paths.inboxDirectory)).toBe(false)
  })

  it('an invalid recipient name exits 1 and creates no file', async () => {
    const team = tempTeam()
    const result = await cli(['send', '../x', 'hi', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Invalid recipient: .*1-32 characters/)
    expect(existsSync(team.paths.inboxDirectory)).toBe(false)
    expect(readdirSync(team.dir)).toEqual(['.team'])
  })

  it('a bad type exits 1 naming the valid types', async () => {
    const team = tempTeam()
    const result = await cli(['send', 'alice', 'x', '--type', 'memo', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /Invalid message type "memo"\. Valid types: message, broadcast, shutdown_request, shutdown_response, plan_approval_response\./,
    )
  })

  it('an unknown sender exits 1', async () => {
    const team = tempTeam()
    const result = await cli(['send', 'alice', 'x', '--from', 'mallory', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Unknown sender "mallory"/)
  })

  it('with --json an error is a JSON object on stderr with its code', async () => {
    const team = tempTeam()
    const result = await cli(['send', 'zed', 'x', '--json', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'unknown-recipient',
        message: expect.stringMatching(/Unknown recipient "zed"/),
      },
    })
  })

  it('"user" has no inbox to list or drain', async () => {
    const team = tempTeam()
    for (const command of ['inbox', 'drain', 'archive']) {
      const result = await cli([command, 'user', '--workspace', team.dir])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/No inbox "user": "user" has no inbox/)
    }
  })

  it('an inbox being consumed cannot be drained: exit 1, inbox-busy', async () => {
    const team = tempTeam()
    team.consumer('alice')
    const result = await cli(['drain', 'alice', '--json', '--workspace', team.dir])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'inbox-busy' } })
  })

  it('--workspace is honoured: another folder is not touched', async () => {
    const here = tempTeam(['alice'])
    const there = tempTeam(['carol'])
    expect((await cli(['send', 'carol', 'x', '--workspace', here.dir])).code).toBe(1)
    expect((await cli(['send', 'carol', 'x', '--workspace', there.dir])).code).toBe(0)
    expect(existsSync(there.paths.inbox('carol'))).toBe(true)
    expect(existsSync(here.paths.inboxDirectory)).toBe(false)
  })
})
