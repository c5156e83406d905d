import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TeamEvent } from '../../../src/shared/events'
import { Team } from '../../../src/runtime/team/team'
import { tempWorkspace } from '../../helpers/workspace'
import { waitFor } from '../../helpers/wait'

async function openTeam(dir: string): Promise<{ team: Team; events: TeamEvent[] }> {
  const team = await Team.open({ workspace: dir })
  onTestFinished(() => team.close())
  const events: TeamEvent[] = []
  team.subscribe((event) => events.push(event))
  return { team, events }
}

function writeRoster(dir: string, members: { name: string; role: string; status: string }[]): void {
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify({ team_name: 'crew', members }))
}

describe('Team.open', () => {
  it('sets members a dead run left working back to idle, with an event each', async () => {
    const { dir, paths } = tempWorkspace()
    const first = await Team.open({ workspace: dir, watch: false })
    first.roster.update((draft) => {
      draft.members.push(
        { name: 'alice', role: 'coder', status: 'working' },
        { name: 'bob', role: 'tester', status: 'idle' },
      )
    })
    await first.close()

    const { team, events } = await openTeam(dir)
    expect(team.roster.find('alice')?.status).toBe('idle')
    expect(team.roster.find('bob')?.status).toBe('idle')
    expect(events).toEqual([
      expect.objectContaining({
        type: 'agent-status-changed',
        name: 'alice',
        previous: 'working',
        status: 'idle',
        cause: null,
        error_code: null,
      }),
    ])
    expect(JSON.parse(readFileSync(paths.config, 'utf8')).members[0].status).toBe('idle')
  })

  it('refuses a second runtime on the same workspace', async () => {
    const { dir } = tempWorkspace()
    await openTeam(dir)
    await expect(Team.open({ workspace: dir })).rejects.toMatchObject({ code: 'workspace-busy' })
  })

  it('reports external edits of config.json, including a rename over it', async () => {
    const { dir } = tempWorkspace()
    const { team, events } = await openTeam(dir)
    writeRoster(dir, [{ name: 'carol', role: 'reviewer', status: 'idle' }])
    await waitFor(
      () => team.roster.find('carol') !== undefined,
      () => 'the edit to be picked up',
    )
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'roster-changed', team_name: 'crew' }),
    )

    const replacement = join(dir, '.team', 'next.json')
    writeFileSync(replacement, JSON.stringify({ team_name: 'renamed', members: [] }))
    renameSync(replacement, join(dir, '.team', 'config.json'))
    await waitFor(
      () => team.roster.snapshot.team_name === 'renamed',
      () => 'the replaced file to be picked up',
    )
  })

  it('reports an unparseable edit with its place, keeps the last good roster and the bad file', async () => {
    const { dir, paths } = tempWorkspace()
    const { team, events } = await openTeam(dir)
    team.roster.update((draft) => {
      draft.members.push({ name: 'alice', role: 'coder', status: 'idle' })
    })
    const broken =
      '{\n  "team_name": "x",\n  "members": [\n    {"name": "alice" "role": "coder"}\n  ]\n}\n'
    writeFileSync(paths.config, broken)
    await waitFor(
      () => events.some((event) => event.type === 'roster-invalid'),
      () => 'a roster-invalid event',
    )
    const invalid = events.find((event) => event.type === 'roster-invalid')
    expect(invalid).toMatchObject({ file: paths.config, line: 4 })
    expect(team.roster.find('alice')?.role).toBe('coder')
    expect(readFileSync(paths.config, 'utf8')).toBe(broken)
  })

  it('reports a line appended to an inbox by another program, and messages it sends', async () => {
    const { dir, paths } = tempWorkspace()
    const { team, events } = await openTeam(dir)
    team.roster.update((draft) => {
      draft.members.push({ name: 'bob', role: 'tester', status: 'idle' })
    })
    team.send({ from: 'user', to: 'bob', content: 'hello' })
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'message-sent',
        message: expect.objectContaining({ to: 'bob', content: 'hello' }),
      }),
    )
    writeFileSync(
      paths.inbox('bob'),
      `${JSON.stringify({ type: 'message', from: 'lead', content: 'from a shell', timestamp: 1 })}\n`,
      { flag: 'a' },
    )
    await waitFor(
      () => events.some((event) => event.type === 'inbox-changed' && event.name === 'bob'),
      () => 'an inbox-changed event',
    )
  })
})
