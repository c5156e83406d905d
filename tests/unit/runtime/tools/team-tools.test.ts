import { describe, expect, it } from 'vitest'
import { ENGINES } from '../../../../src/shared/engine'
import { teamTools, type TeamOperations } from '../../../../src/runtime/tools/team-tools'
import type { Tool } from '../../../../src/runtime/tools/types'

type SpawnAsked = Parameters<TeamOperations['spawn']>[0]

/** The lead's spawn_teammate over operations that record each spawn the tool asks for. */
function spawnTeammate(): { tool: Tool; asked: SpawnAsked[] } {
  const asked: SpawnAsked[] = []
  const operations: TeamOperations = {
    spawn: async (request) => {
      asked.push(request)
      return `Spawned '${request.name}'`
    },
    listTeammates: async () => '',
    send: () => {
      throw new Error('not sent in this test')
    },
    broadcast: () => [],
  }
  const tool = teamTools(operations).lead.find(
    (candidate) => candidate.definition.name === 'spawn_teammate',
  )
  if (tool === undefined) throw new Error('no spawn_teammate')
  return { tool, asked }
}

const context = { workspace: '/tmp/ws', agent: 'lead', signal: new AbortController().signal }

describe("the lead's spawn_teammate and engines", () => {
  it('offers every engine, for a new teammate', () => {
    const { tool } = spawnTeammate()
    const engine = (
      tool.definition.input_schema.properties as Record<string, Record<string, unknown>>
    ).engine
    expect(engine?.enum).toEqual([...ENGINES])
    expect(engine?.description).toMatch(/^Optional, for a new teammate: .*claude-code/)
    expect(tool.definition.input_schema.required).toEqual(['name', 'role', 'prompt'])
  })

  it('passes the engine asked for to the host, and none when it says none', async () => {
    const { tool, asked } = spawnTeammate()
    const base = { name: 'alice', role: 'coder', prompt: 'Write it.' }
    await tool.run({ ...base, engine: 'claude-code' }, context)
    await tool.run(base, context)
    expect(asked).toEqual([{ ...base, engine: 'claude-code' }, base])
  })

  it('refuses an engine that does not exist, as data, without spawning', async () => {
    const { tool, asked } = spawnTeammate()
    const outcome = await tool.run(
      { name: 'alice', role: 'coder', prompt: 'Write it.', engine: 'codex' },
      context,
    )
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toMatch(/engine/)
    expect(asked).toEqual([])
  })
})
