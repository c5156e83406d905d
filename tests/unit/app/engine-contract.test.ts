import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { engineAvailability } from '../../../src/runtime/engines/availability'
import { commands } from '../../../src/shared/contract'
import type { EngineAvailability } from '../../../src/shared/engine'
import { serializeError } from '../../../src/shared/errors'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { agentScript, rosterOnDisk } from '../../helpers/agents'
import { appServices } from '../../helpers/app-service'

const PROBLEM = 'Claude Code is not installed (a test says so).'

const notInstalled = (): EngineAvailability[] => [
  { engine: 'builtin', available: true, problem: null, needs: 'A key.', costs: 'Prices.' },
  { engine: 'claude-code', available: false, problem: PROBLEM, needs: 'Claude.', costs: 'More.' },
]

async function failure(run: Promise<unknown>): Promise<ReturnType<typeof serializeError>> {
  try {
    await run
  } catch (error) {
    return serializeError(error)
  }
  throw new Error('expected the command to fail')
}

describe('the contract: getEngines, and spawn with an engine', () => {
  const openService = appServices('agent-teams-engines-')

  it('getEngines answers what this machine has, as declared', async () => {
    const { service } = await openService({ script: agentScript(() => undefined) })
    const reply = commands.getEngines.result.parse(await service.execute('getEngines', {}))
    expect(reply).toEqual({ engines: engineAvailability() })
  })

  it('without Claude Code: getEngines says why, and a spawn onto it is refused as data', async () => {
    const { workspace, service } = await openService({
      script: agentScript((agent) => (agent === 'alice' ? text('Done.') : undefined)),
      engineAvailability: notInstalled,
    })
    expect(await service.execute('getEngines', {})).toEqual({ engines: notInstalled() })
    const params = { name: 'alice', role: 'coder', prompt: 'Go.', engine: 'claude-code' }
    expect(await failure(service.execute('spawn', params))).toEqual({
      name: 'TeamError',
      code: 'engine-unavailable',
      message: PROBLEM,
    })
    expect(rosterOnDisk(workspace)).toEqual([])
    // An engine that does not exist is not a spawn at all.
    expect(await failure(service.execute('spawn', { ...params, engine: 'codex' }))).toMatchObject({
      code: 'invalid-argument',
      message: expect.stringMatching(/^Invalid parameters for spawn: engine: /),
    })
    await service.execute('spawn', { ...params, engine: 'builtin' })
    await service.currentHost?.whenIdle()
    expect(rosterOnDisk(workspace)).toEqual([
      expect.not.objectContaining({ engine: expect.anything() }),
    ])
  })

  it('the snapshot names each agent’s engine: a member’s own, builtin for the rest', async () => {
    const { service } = await openService({
      script: agentScript(() => undefined),
      prepare: (workspace) =>
        Roster.open(new TeamPaths(workspace)).update((draft) => {
          draft.members.push(
            { name: 'alice', role: 'coder', status: 'idle', engine: 'claude-code' },
            { name: 'bob', role: 'tester', status: 'idle' },
          )
        }),
    })
    const snapshot = commands.getSnapshot.result.parse(await service.execute('getSnapshot', {}))
    expect(snapshot?.lead.engine).toBe('builtin')
    expect(snapshot?.members.map((member) => [member.name, member.engine])).toEqual([
      ['alice', 'claude-code'],
      ['bob', 'builtin'],
    ])
  })
})
