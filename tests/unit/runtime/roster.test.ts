import { existsSync, readFileSync, readdirSync, writeFileSync, renameSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Roster } from '../../../src/runtime/roster/roster'
import { MEMBER_STATUSES } from '../../../src/shared/roster'
import { deadPid } from '../../helpers/processes'
import { tempWorkspace } from '../../helpers/workspace'

function onDisk(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

describe('the roster', () => {
  it('is created empty on open, with a team name and a format version', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    expect(roster.members).toEqual([])
    expect(roster.snapshot.team_name).toBe('default')
    expect(onDisk(paths.config)).toEqual({ team_name: 'default', members: [], format_version: 1 })
  })

  it('Roster.read creates nothing', () => {
    const { paths } = tempWorkspace()
    expect(Roster.read(paths)).toMatchObject({ team_name: 'default', members: [] })
    expect(existsSync(paths.root)).toBe(false)
  })

  it("reads s09's own file as it is", () => {
    const { paths } = tempWorkspace()
    Roster.open(paths)
    writeFileSync(
      paths.config,
      JSON.stringify(
        { team_name: 'default', members: [{ name: 'alice', role: 'coder', status: 'working' }] },
        null,
        2,
      ),
    )
    const roster = Roster.open(paths)
    expect(roster.find('alice')).toEqual({ name: 'alice', role: 'coder', status: 'working' })
    expect(roster.memberNames()).toEqual(['alice'])
  })

  it('has at least the statuses working, idle and shutdown', () => {
    expect(MEMBER_STATUSES).toEqual(expect.arrayContaining(['working', 'idle', 'shutdown']))
  })

  it('keeps extra fields, at the top level and on members, through an update', () => {
    const { paths } = tempWorkspace()
    Roster.open(paths)
    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'acme',
        owner: { email: 'x@example.com' },
        members: [
          { name: 'alice', role: 'coder', status: 'idle', model: 'claude', tags: ['a', 'b'] },
        ],
      }),
    )
    const roster = Roster.open(paths)
    roster.update((draft) => {
      draft.members.push({ name: 'bob', role: 'tester', status: 'working' })
    })
    roster.setStatus('alice', 'working')
    const file = onDisk(paths.config)
    expect(file).toMatchObject({
      team_name: 'acme',
      owner: { email: 'x@example.com' },
      format_version: 1,
    })
    expect(file.members).toEqual([
      expect.objectContaining({
        name: 'alice',
        role: 'coder',
        status: 'working',
        model: 'claude',
        tags: ['a', 'b'],
      }),
      { name: 'bob', role: 'tester', status: 'working' },
    ])
    expect(Roster.open(paths).snapshot).toMatchObject({ owner: { email: 'x@example.com' } })
  })

  it('is written atomically: no temp file is left beside it', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    for (let index = 0; index < 20; index++)
      roster.update((draft) => void (draft.team_name = `team-${index}`))
    expect(readdirSync(paths.root).filter((file) => file !== 'config.json')).toEqual([])
    expect(onDisk(paths.config).team_name).toBe('team-19')
  })

  it('refuses an update that would make it invalid, and leaves the file as it was', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    roster.update(
      (draft) => void draft.members.push({ name: 'alice', role: 'coder', status: 'idle' }),
    )
    const before = readFileSync(paths.config, 'utf8')
    expect(() =>
      roster.update(
        (draft) => void draft.members.push({ name: 'alice', role: 'again', status: 'idle' }),
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'roster-invalid',
        message: expect.stringMatching(
          /Refusing to write an invalid roster: members\.1\.name: "alice" appears twice/,
        ),
      }),
    )
    expect(() =>
      roster.update(
        (draft) => void draft.members.push({ name: 'lead', role: 'x', status: 'idle' }),
      ),
    ).toThrow(/members\.1\.name: is reserved/)
    expect(() =>
      roster.update((draft) => void draft.members.push({ name: 'Bob', role: 'x', status: 'idle' })),
    ).toThrow(/members\.1\.name: must be an agent name/)
    expect(readFileSync(paths.config, 'utf8')).toBe(before)
    expect(roster.memberNames()).toEqual(['alice'])
  })

  it('an update does not silently undo an external edit made since the roster was read', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    roster.update(
      (draft) => void draft.members.push({ name: 'alice', role: 'coder', status: 'idle' }),
    )
    // Someone adds a member by hand; the runtime has not reloaded yet.
    const edited = Roster.read(paths)
    writeFileSync(
      paths.config,
      JSON.stringify(
        {
          ...edited,
          members: [...edited.members, { name: 'carol', role: 'writer', status: 'idle' }],
        },
        null,
        2,
      ),
    )
    try {
      roster.setStatus('alice', 'working')
    } catch (error) {
      // Refusing is fine (the code kept for it is 'roster-conflict'); overwriting the edit is not.
      expect(error).toMatchObject({ code: 'roster-conflict' })
    }
    expect(Roster.read(paths).members.map((member) => member.name)).toContain('carol')
  })

  it('setStatus changes one member and refuses a name not on the roster', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths, { clock: { now: () => 5000 } })
    roster.update(
      (draft) => void draft.members.push({ name: 'alice', role: 'coder', status: 'idle' }),
    )
    roster.setStatus('alice', 'shutdown')
    expect(Roster.read(paths).members[0]).toMatchObject({ status: 'shutdown', updated_at: 5 })
    expect(() => roster.setStatus('zed', 'idle')).toThrow(
      expect.objectContaining({
        code: 'unknown-agent',
        message: expect.stringMatching(/"zed" is not on the roster/),
      }),
    )
  })
})

describe('recoverStale', () => {
  it('sets members left working by a run that died back to idle, and returns the changes', () => {
    const { paths } = tempWorkspace()
    Roster.open(paths).update((draft) => {
      draft.members.push(
        { name: 'alice', role: 'coder', status: 'working' },
        { name: 'bob', role: 'tester', status: 'idle' },
        { name: 'carol', role: 'writer', status: 'working' },
        { name: 'dave', role: 'ops', status: 'shutdown' },
      )
    })
    const roster = Roster.open(paths)
    const changes = roster.recoverStale()
    expect(changes).toEqual([
      {
        name: 'alice',
        previous: 'working',
        status: 'idle',
        reason: expect.stringMatching(/ended without stopping it/),
      },
      { name: 'carol', previous: 'working', status: 'idle', reason: expect.any(String) },
    ])
    expect(Roster.read(paths).members.map((member) => [member.name, member.status])).toEqual([
      ['alice', 'idle'],
      ['bob', 'idle'],
      ['carol', 'idle'],
      ['dave', 'shutdown'],
    ])
    expect(roster.recoverStale()).toEqual([])
  })

  it('with nobody working changes nothing and does not write', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    const before = readFileSync(paths.config, 'utf8')
    writeFileSync(paths.config, before.replace('"default"', '"edited"'))
    expect(roster.recoverStale()).toEqual([])
    expect(onDisk(paths.config).team_name).toBe('edited')
  })
})

describe('reload', () => {
  it('picks up an external edit (also one that replaced the file by rename)', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    expect(roster.reload()).toBe(false)
    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'edited',
        members: [{ name: 'alice', role: 'coder', status: 'idle' }],
      }),
    )
    expect(roster.reload()).toBe(true)
    expect(roster.snapshot.team_name).toBe('edited')
    expect(roster.memberNames()).toEqual(['alice'])
    expect(roster.reload()).toBe(false)
    writeFileSync(`${paths.config}.new`, JSON.stringify({ team_name: 'renamed', members: [] }))
    renameSync(`${paths.config}.new`, paths.config)
    expect(roster.reload()).toBe(true)
    expect(roster.snapshot.team_name).toBe('renamed')
  })

  it('throws roster-invalid on an invalid edit, keeping the last good roster and the file untouched', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    roster.update(
      (draft) => void draft.members.push({ name: 'alice', role: 'coder', status: 'idle' }),
    )
    const broken = '{"team_name": "x", "members": [}'
    writeFileSync(paths.config, broken)
    expect(() => roster.reload()).toThrow(
      expect.objectContaining({
        code: 'roster-invalid',
        message: expect.stringContaining(paths.config),
      }),
    )
    expect(roster.memberNames()).toEqual(['alice'])
    expect(readFileSync(paths.config, 'utf8')).toBe(broken)
    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'x',
        members: [{ name: 'alice', role: 'coder', status: 'bored' }],
      }),
    )
    expect(() => roster.reload()).toThrow(/members\[0\]\.status/)
    expect(roster.snapshot.team_name).toBe('default')
  })
})

describe('stale temp files', () => {
  it("removes a dead process's temp files on open, and keeps a live one's", async () => {
    const { paths } = tempWorkspace()
    Roster.open(paths)
    const dead = `.config.json.${await deadPid()}.0a1b2c3d.tmp`
    const live = `.config.json.${process.ppid}.0a1b2c3d.tmp`
    const mine = `.config.json.${process.pid}.deadbeef.tmp`
    const unrelated = 'notes.txt'
    for (const file of [dead, live, mine, unrelated])
      writeFileSync(`${paths.root}/${file}`, '{"half": ')
    Roster.open(paths)
    expect(readdirSync(paths.root).sort()).toEqual([live, mine, 'config.json', unrelated].sort())
  })
})
