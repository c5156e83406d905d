import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TeamEvent } from '../../../src/shared/events'
import { Roster } from '../../../src/runtime/roster/roster'
import { Team } from '../../../src/runtime/team/team'
import { tempWorkspace } from '../../helpers/workspace'

function statusesOnDisk(path: string): Record<string, string> {
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    members: { name: string; status: string }[]
  }
  return Object.fromEntries(file.members.map((member) => [member.name, member.status]))
}

function rosterOf(names: string[]): { roster: Roster; config: string } {
  const { paths } = tempWorkspace()
  const roster = Roster.open(paths)
  roster.update((draft) => {
    for (const name of names) draft.members.push({ name, role: 'coder', status: 'idle' })
  })
  return { roster, config: paths.config }
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('staged statuses', () => {
  it('show in memory at once and reach the file with the next write', () => {
    const { roster, config } = rosterOf(['alice', 'bob'])
    const before = roster.members
    roster.stageStatus('alice', 'working')
    roster.stageStatus('zed', 'working') // not on the roster: ignored
    expect(roster.find('alice')?.status).toBe('working')
    expect(before[0]?.status).toBe('idle') // members handed out earlier are not changed under them
    expect(statusesOnDisk(config)).toEqual({ alice: 'idle', bob: 'idle' })
    expect(roster.hasStaged).toBe(true)
    roster.writeStaged()
    expect(statusesOnDisk(config)).toEqual({ alice: 'working', bob: 'idle' })
    expect(roster.hasStaged).toBe(false)
  })

  it('are merged into an external edit made before the write', () => {
    const { roster, config } = rosterOf(['alice'])
    roster.stageStatus('alice', 'working')
    writeFileSync(
      config,
      JSON.stringify({
        team_name: 'edited',
        members: [
          { name: 'alice', role: 'reviewer', status: 'idle' },
          { name: 'carol', role: 'writer', status: 'idle' },
        ],
      }),
    )
    expect(roster.reload()).toBe(true)
    expect(roster.find('alice')).toMatchObject({ role: 'reviewer', status: 'working' })
    roster.writeStaged()
    const file = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>
    expect(file.team_name).toBe('edited')
    expect(statusesOnDisk(config)).toEqual({ alice: 'working', carol: 'idle' })
  })

  it('set back to what the file says write nothing', () => {
    const { roster, config } = rosterOf(['alice'])
    const inode = statSync(config).ino
    roster.stageStatus('alice', 'working')
    roster.stageStatus('alice', 'idle')
    roster.writeStaged()
    // The atomic write replaces the file (a new inode); no write leaves it as it was.
    expect(statSync(config).ino).toBe(inode)
  })
})

describe('Team.setStatus', () => {
  async function openTeam(): Promise<{ team: Team; events: TeamEvent[]; config: string }> {
    const { dir, paths } = tempWorkspace()
    const team = await Team.open({ workspace: dir, watch: false })
    onTestFinished(() => team.close())
    team.updateRoster((draft) => {
      for (const name of ['alice', 'bob'])
        draft.members.push({ name, role: 'coder', status: 'idle' })
    })
    const events: TeamEvent[] = []
    team.subscribe((event) => events.push(event))
    return { team, events, config: paths.config }
  }

  it('reports at once and writes every change of the tick in one write', async () => {
    const { team, events, config } = await openTeam()
    const inode = statSync(config).ino
    team.setStatus('alice', 'working', 'activated')
    team.setStatus('bob', 'working', 'activated')
    expect(events.filter((event) => event.type === 'agent-status-changed')).toHaveLength(2)
    expect(statusesOnDisk(config)).toEqual({ alice: 'idle', bob: 'idle' })
    await nextTick()
    expect(statusesOnDisk(config)).toEqual({ alice: 'working', bob: 'working' })
    expect(statSync(config).ino).not.toBe(inode)
  })

  it('writes a shutdown at once, with whatever else is staged (a crash must not undo it)', async () => {
    const { team, config } = await openTeam()
    team.setStatus('bob', 'working', 'activated')
    team.setStatus('alice', 'shutdown', 'approved')
    expect(statusesOnDisk(config)).toEqual({ alice: 'shutdown', bob: 'working' })
  })

  it('writes what is staged when the team closes', async () => {
    const { team, config } = await openTeam()
    team.setStatus('alice', 'error', 'failed')
    await team.close()
    expect(statusesOnDisk(config)).toEqual({ alice: 'error', bob: 'idle' })
  })

  it('keeps statuses staged while config.json is broken, and reports it', async () => {
    const { team, events, config } = await openTeam()
    writeFileSync(config, '{ "members": [')
    team.setStatus('alice', 'working', 'activated')
    await nextTick()
    expect(events).toContainEqual(expect.objectContaining({ type: 'roster-invalid' }))
    expect(readFileSync(config, 'utf8')).toBe('{ "members": [')
    writeFileSync(
      config,
      JSON.stringify({
        team_name: 'fixed',
        members: [{ name: 'alice', role: 'coder', status: 'idle' }],
      }),
    )
    team.flushStatuses()
    expect(statusesOnDisk(config)).toEqual({ alice: 'working' })
  })
})
