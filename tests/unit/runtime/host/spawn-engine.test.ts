import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import type { EngineAvailability } from '../../../../src/shared/engine'
import { TeamError } from '../../../../src/shared/errors'
import { LEAD, USER } from '../../../../src/shared/names'
import { Roster } from '../../../../src/runtime/roster/roster'
import { agentScript, rosterOnDisk } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

const PROBLEM = 'Claude Code is not installed here (a test says so). Install it, or use builtin.'

/** What `engineAvailability()` answers on a machine without Claude Code. */
const notInstalled = (): EngineAvailability[] => [
  { engine: 'builtin', available: true, problem: null, needs: 'a key', costs: 'prices' },
  { engine: 'claude-code', available: false, problem: PROBLEM, needs: 'Claude', costs: 'more' },
]

async function refusal(run: () => Promise<unknown>): Promise<TeamError> {
  try {
    await run()
  } catch (error) {
    if (error instanceof TeamError) return error
    throw error
  }
  throw new Error('expected the spawn to be refused')
}

describe('a spawn onto an engine that cannot run here', () => {
  it('is refused with engine-unavailable and the problem, before anything is written', async () => {
    const team = await startHost(
      agentScript(() => text('Ok.')),
      { engineAvailability: notInstalled },
    )
    const error = await refusal(() =>
      team.host.spawn({
        name: 'alice',
        role: 'coder',
        prompt: 'Write it.',
        engine: 'claude-code',
        by: USER,
      }),
    )
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'engine-unavailable',
      message: PROBLEM,
    })
    expect(rosterOnDisk(team.workspace)).toEqual([])
    expect(team.server.requests).toHaveLength(0)

    // The built-in engine is still there, and what it writes reads as before engines.
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Write it.', by: USER })
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('engine')
  })

  it('refuses the re-spawn of a Claude Code member, by anyone, once Claude Code is gone', async () => {
    const { dir, paths } = tempWorkspace()
    Roster.open(paths).update((draft) => {
      draft.members.push({ name: 'alice', role: 'coder', status: 'idle', engine: 'claude-code' })
    })
    const team = await startHost(
      agentScript(() => text('Ok.')),
      { workspace: dir, engineAvailability: notInstalled },
    )
    for (const by of [LEAD, USER]) {
      const error = await refusal(() =>
        team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Again.', by }),
      )
      expect(error.code, by).toBe('engine-unavailable')
    }
    expect(rosterOnDisk(team.workspace)[0]).toMatchObject({ status: 'idle', engine: 'claude-code' })
  })

  it('lets the lead re-spawn a builtin member that it asks to move: the engine is kept', async () => {
    const team = await startHost(
      agentScript(() => text('Ok.')),
      { engineAvailability: notInstalled },
    )
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.', by: USER })
    await team.host.whenIdle()
    // Not refused for Claude Code: the lead's ask is left out, and the answer says so.
    const answer = await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Again.',
      engine: 'claude-code',
      by: LEAD,
    })
    await team.host.whenIdle()
    expect(answer).toMatch(
      /kept alice's own .* and engine builtin \(the spawn asked for engine claude-code\)/,
    )
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('engine')
  })
})
