import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TeamHost } from '../../../../src/runtime/host/host'
import { text, toolCall } from '../../../../src/offline-model/script'
import { TeamError } from '../../../../src/shared/errors'
import {
  agentScript,
  refused,
  requestsOf,
  resultText,
  rosterOnDisk,
  toolResults,
} from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

async function thrownAsync(action: () => Promise<unknown>): Promise<TeamError> {
  try {
    await action()
  } catch (error) {
    if (error instanceof TeamError) return error
    throw error
  }
  throw new Error('expected the call to throw')
}

function thrown(action: () => unknown): TeamError {
  try {
    action()
  } catch (error) {
    if (error instanceof TeamError) return error
    throw error
  }
  throw new Error('expected the call to throw')
}

function memberOnDisk(workspace: string, name: string): Record<string, unknown> | undefined {
  return rosterOnDisk(workspace).find((member) => member.name === name)
}

describe('the model chosen per agent', () => {
  it('a spawn with a model and thinking lands in config.json and in every request of that agent', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    const summary = await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Go.',
      model: 'claude-opus-4-1',
      thinking: 2048,
    })
    expect(summary).toBe(
      "Spawned 'alice' (role: coder, model: claude-opus-4-1, thinking: 2048 tokens)",
    )
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Go.' })
    await team.host.whenIdle()

    expect(memberOnDisk(team.workspace, 'alice')).toMatchObject({
      model: 'claude-opus-4-1',
      thinking: 2048,
    })
    const bob = memberOnDisk(team.workspace, 'bob')
    expect(bob).not.toHaveProperty('model')
    expect(bob).not.toHaveProperty('thinking')

    const [alice] = requestsOf(team, 'alice')
    expect(alice?.body.model).toBe('claude-opus-4-1')
    expect(alice?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    expect(alice && refused(alice)).toBe(false)
    const [bobRequest] = requestsOf(team, 'bob')
    expect(bobRequest?.body.model).toBe('offline-test')
    expect(bobRequest?.body.thinking).toBeUndefined()
    expect(team.host.modelChoice('alice')).toEqual({ model: 'claude-opus-4-1', thinking: 2048 })
    expect(team.host.modelChoice('bob')).toEqual({ model: null, thinking: null })
  })

  it("spawn_teammate's optional model and thinking reach config.json and the teammate's requests", async () => {
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent === 'lead' && call === 1)
          return toolCall('spawn_teammate', {
            name: 'carol',
            role: 'reviewer',
            prompt: 'Review it.',
            model: 'claude-haiku-4-5',
            thinking: 1024,
          })
        if (agent === 'lead' && call === 2)
          return toolCall('spawn_teammate', {
            name: 'dave',
            role: 'coder',
            prompt: 'Code it.',
            model: 'claude sonnet; rm -rf /',
          })
        if (agent === 'lead' && call === 3) return toolCall('list_teammates', {})
        return text('Done.')
      }),
    )
    team.host.chat('Build a team.')
    await team.host.whenIdle()

    expect(memberOnDisk(team.workspace, 'carol')).toMatchObject({
      model: 'claude-haiku-4-5',
      thinking: 1024,
    })
    const [carol] = requestsOf(team, 'carol')
    expect(carol?.body.model).toBe('claude-haiku-4-5')
    expect(carol?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })

    // A hostile model id comes back to the lead as an error it can act on; nothing is spawned.
    const results = toolResults(requestsOf(team, 'lead')[2])
    const [refusal] = [...results.values()]
    expect(refusal?.is_error).toBe(true)
    expect(resultText(refusal)).toMatch(/Invalid model: .* may hold only letters, digits/)
    expect(memberOnDisk(team.workspace, 'dave')).toBeUndefined()
    const [list] = [...toolResults(requestsOf(team, 'lead')[3]).values()]
    expect(resultText(list)).toMatch(/carol \(reviewer, claude-haiku-4-5\): (idle|working)/)
  })

  it('a change takes effect on the next turn, for a teammate and for the lead', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.', model: 'claude-a' })
    await team.host.whenIdle()

    team.host.setModel('alice', { model: 'claude-b', thinking: 4096 })
    expect(memberOnDisk(team.workspace, 'alice')).toMatchObject({
      model: 'claude-b',
      thinking: 4096,
    })
    team.host.send({ to: 'alice', content: 'Second.' })
    await team.host.whenIdle()
    team.host.setModel('alice', { model: null, thinking: null })
    team.host.send({ to: 'alice', content: 'Third.' })
    await team.host.whenIdle()

    const alice = requestsOf(team, 'alice')
    expect(alice.map((request) => request.body.model)).toEqual([
      'claude-a',
      'claude-b',
      'offline-test',
    ])
    expect(alice.map((request) => request.body.thinking ?? null)).toEqual([
      null,
      { type: 'enabled', budget_tokens: 4096 },
      null,
    ])
    expect(alice.every((request) => !refused(request))).toBe(true)
    expect(memberOnDisk(team.workspace, 'alice')).not.toHaveProperty('model')

    // The lead is not a member: its choice is the roster's `lead` object.
    team.host.chat('Hello.')
    await team.host.whenIdle()
    const summary = team.host.setModel('lead', { model: 'claude-lead', thinking: 1024 })
    expect(summary).toBe('lead now runs on claude-lead, thinking on (1024 tokens).')
    team.host.chat('Again.')
    await team.host.whenIdle()
    const lead = requestsOf(team, 'lead')
    expect(lead.map((request) => request.body.model)).toEqual(['offline-test', 'claude-lead'])
    expect(lead[1]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })
    const config = JSON.parse(
      readFileSync(join(team.workspace, '.team', 'config.json'), 'utf8'),
    ) as { lead?: unknown }
    expect(config.lead).toEqual({ model: 'claude-lead', thinking: 1024 })
    const roster = team.events.filter((event) => event.type === 'roster-changed').at(-1)
    expect(roster).toMatchObject({ lead: { model: 'claude-lead', thinking: 1024 } })
  })

  it('a re-spawn keeps the model and thinking unless it gives them; null goes back to the default', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'One.',
      model: 'claude-a',
      thinking: 1024,
    })
    await team.host.whenIdle()
    await team.host.spawn({ name: 'alice', role: 'tester', prompt: 'Two.' })
    await team.host.whenIdle()
    expect(team.host.modelChoice('alice')).toEqual({ model: 'claude-a', thinking: 1024 })
    await team.host.spawn({
      name: 'alice',
      role: 'tester',
      prompt: 'Three.',
      model: null,
      thinking: null,
    })
    await team.host.whenIdle()
    expect(team.host.modelChoice('alice')).toEqual({ model: null, thinking: null })
    expect(requestsOf(team, 'alice').map((request) => request.body.model)).toEqual([
      'claude-a',
      'claude-a',
      'offline-test',
    ])
  })

  it('refuses hostile model ids and thinking budgets with the rule, and writes nothing', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Go.' })
    await team.host.whenIdle()
    const before = rosterOnDisk(team.workspace)
    const spawn = (change: Record<string, unknown>): Promise<TeamError> =>
      thrownAsync(() => team.host.spawn({ name: 'bob', role: 'coder', prompt: 'Go.', ...change }))
    for (const model of ['', ' claude', 'claude\nsonnet', '../x', 'a'.repeat(201), 'model"x']) {
      const error = await spawn({ model })
      expect(error.code).toBe('invalid-argument')
      expect(error.message).toMatch(/^Invalid model: .*\(a model id is 1-200 characters/)
    }
    expect((await spawn({ model: 42 })).message).toMatch(/Invalid model: it is not a string/)
    for (const thinking of [0, 1023, 1024.5, 128_001, Number.NaN, -5]) {
      const error = await spawn({ thinking })
      expect(error.code).toBe('invalid-argument')
      expect(error.message).toMatch(/^Invalid thinking: .*a thinking budget is a whole number/)
    }
    expect((await spawn({ thinking: '2048' })).message).toMatch(
      /Invalid thinking: it is not a number/,
    )
    expect(thrown(() => team.host.setModel('alice', { thinking: 10 })).code).toBe(
      'invalid-argument',
    )
    expect(thrown(() => team.host.setModel('nobody', { model: 'claude-x' })).message).toMatch(
      /nobody/,
    )
    expect(rosterOnDisk(team.workspace)).toEqual(before)
  })
})

describe('config.json: model fields are read with the roster', () => {
  const write = (dir: string, members: unknown[], extra: Record<string, unknown> = {}): void =>
    writeFileSync(
      join(dir, '.team', 'config.json'),
      JSON.stringify({ team_name: 'default', members, ...extra }, null, 2),
    )
  const open = (dir: string) =>
    TeamHost.open({
      workspace: dir,
      endpoint: { apiKey: 'k', baseURL: 'http://127.0.0.1:9', model: 'm' },
      watch: false,
      trust: { store: null, forRun: true },
    })

  it('reads an old roster without them, and the fields when present', async () => {
    const { dir, paths } = tempWorkspace()
    mkdirSync(paths.root, { recursive: true })
    write(dir, [
      { name: 'alice', role: 'coder', status: 'shutdown' },
      { name: 'bob', role: 'coder', status: 'shutdown', model: 'claude-b', thinking: null },
      { name: 'carol', role: 'coder', status: 'shutdown', model: 'claude-c', thinking: 3000 },
    ])
    const host = await open(dir)
    try {
      expect(host.modelChoice('alice')).toEqual({ model: null, thinking: null })
      expect(host.modelChoice('bob')).toEqual({ model: 'claude-b', thinking: null })
      expect(host.modelChoice('carol')).toEqual({ model: 'claude-c', thinking: 3000 })
      expect(host.modelChoice('lead')).toEqual({ model: null, thinking: null })
    } finally {
      await host.close()
    }
  })

  it.each([
    [{ model: 42 }, /members\[0\]\.model is not a model id/],
    [{ model: '../../x' }, /members\[0\]\.model is not a model id/],
    [{ thinking: 512 }, /members\[0\]\.thinking is below the API's minimum/],
    [{ thinking: 'lots' }, /members\[0\]\.thinking is not a thinking budget/],
  ])('refuses a member with %j, naming the field and its line', async (fields, message) => {
    const { dir, paths } = tempWorkspace()
    mkdirSync(paths.root, { recursive: true })
    write(dir, [{ name: 'alice', role: 'coder', status: 'idle', ...fields }])
    const error = await open(dir).then(
      async (host) => {
        await host.close()
        throw new Error('expected the roster to be refused')
      },
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(TeamError)
    expect((error as TeamError).code).toBe('roster-invalid')
    expect((error as TeamError).message).toMatch(message)
    expect((error as TeamError).message).toMatch(/config\.json:\d+:\d+:/)
  })

  it('refuses a lead entry whose model is not a model id', async () => {
    const { dir, paths } = tempWorkspace()
    mkdirSync(paths.root, { recursive: true })
    write(dir, [], { lead: { model: { nested: true } } })
    await expect(open(dir)).rejects.toThrow(/lead\.model is not a model id/)
  })
})
