import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { engineAvailability } from '../../../src/runtime/engines/availability'
import { Roster } from '../../../src/runtime/roster/roster'
import { ENGINE_LABELS, ENGINES, engineAvailabilitySchema } from '../../../src/shared/engine'
import { agentScript, rosterOnDisk } from '../../helpers/agents'
import { cli, jsonLines } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { tempWorkspace } from '../../helpers/workspace'

describe('agent-teams engines', () => {
  it('--json: one line an engine, as the runtime finds it here', async () => {
    const result = await cli(['engines', '--json'])
    expect(result.code).toBe(0)
    const listed = jsonLines(result).map((line) => engineAvailabilitySchema.parse(line))
    expect(listed.map((engine) => engine.engine)).toEqual([...ENGINES])
    expect(listed).toEqual(engineAvailability())
  })

  it('says in words whether each can run, and why not, with what it needs and costs', async () => {
    const result = await cli(['engines'])
    expect(result.code).toBe(0)
    const expected = engineAvailability()
      .map((engine) =>
        [
          `${engine.engine} (${ENGINE_LABELS[engine.engine]}): ${engine.available ? 'available' : 'not available'}`,
          ...(engine.problem === null ? [] : [`  problem: ${engine.problem}`]),
          `  needs: ${engine.needs}`,
          `  costs: ${engine.costs}`,
        ].join('\n'),
      )
      .join('\n')
    expect(result.stdout).toBe(`${expected}\n`)
    expect(result.stdout).toMatch(/^builtin \(Built-in\): available\n {2}needs: /)
    expect((await cli(['engines', 'extra'])).code).toBe(2)
  })
})

describe('agent-teams spawn --engine', () => {
  it('refuses an engine that does not exist, naming the engines (exit 2)', async () => {
    const { dir } = tempWorkspace()
    const result = await cli([
      'spawn',
      'alice',
      'Write it.',
      '--role',
      'coder',
      '--engine',
      'codex',
      '--workspace',
      dir,
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /^agent-teams spawn: --engine takes one of builtin, claude-code, not "codex"\n/,
    )
  })

  it('checks claude-code here before it asks a team: what this machine has decides', async () => {
    const { dir } = tempWorkspace()
    const result = await cli([
      'spawn',
      'alice',
      'Write it.',
      '--role',
      'coder',
      '--engine',
      'claude-code',
      '--workspace',
      dir,
      '--json',
    ])
    const claude = engineAvailability().find((engine) => engine.engine === 'claude-code')
    expect(result.code).toBe(1)
    // Available: the check lets it through, to the running team there is none of here.
    expect(JSON.parse(result.stderr)).toEqual({
      error: claude?.available
        ? { code: 'not-running', message: expect.stringMatching(/^No team is running/) }
        : { code: 'engine-unavailable', message: claude?.problem },
    })
  })

  it('--engine builtin spawns as before: no engine field, said as builtin in JSON', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    const workspace = ['--workspace', team.workspace]
    const result = await cli([
      'spawn',
      'alice',
      'Write it.',
      '--role',
      'coder',
      '--engine',
      'builtin',
      '--json',
      ...workspace,
    ])
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'alice', engine: 'builtin' })
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('engine')
  })
})

describe('agent-teams roster', () => {
  it('names the engine of a member that is not builtin', async () => {
    const { dir, paths } = tempWorkspace()
    Roster.open(paths).update((draft) => {
      draft.members.push(
        { name: 'alice', role: 'coder', status: 'idle', engine: 'claude-code' },
        { name: 'bob', role: 'tester', status: 'idle', model: 'claude-b' },
      )
    })
    const result = await cli(['roster', '--workspace', dir])
    expect(result.stdout).toBe(
      [
        'Team: default',
        '  alice (coder): idle · Claude Code',
        '  bob (tester): idle · claude-b, thinking off',
        '',
      ].join('\n'),
    )
  })
})
