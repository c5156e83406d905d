import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import { agentScript, requestsOf } from '../../../helpers/agents'
import { eventsOf, QUICK_RETRIES, statusOf } from '../../../helpers/faults'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const AGENTS = ['lead', 'alice', 'bob']

describe('a refused API key (401)', () => {
  it('raises one team alert pointing to Settings, no per-agent errors; a new endpoint clears it', async () => {
    const script = agentScript((agent, call) =>
      AGENTS.includes(agent) && call === 1 ? text(`${agent} got through.`) : undefined,
    )
    const team = await startHost(script, { turnPolicy: QUICK_RETRIES, server: { apiKey: 'other' } })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Test.' })
    team.host.chat('Hello, team.')
    await waitFor(
      () => AGENTS.every((name) => ['error', 'waiting'].includes(statusOf(team, name))),
      () => `every agent to end error or waiting (${AGENTS.map((n) => statusOf(team, n))})`,
    )
    await team.host.whenIdle()

    const alerts = eventsOf(team, 'team-alert')
    expect(alerts).toHaveLength(1)
    expect(alerts[0]?.code).toBe('auth')
    expect(alerts[0]?.message).toMatch(/Settings/)
    expect(alerts[0]?.message).toMatch(/401/)
    expect(eventsOf(team, 'agent-error')).toEqual([])
    // Whoever the refusal holds says so as data: the error's code, or the pause's cause.
    const held = eventsOf(team, 'agent-status-changed').filter(
      (event) => event.status === 'error' || event.status === 'waiting',
    )
    expect(held.map((event) => event.name).sort()).toEqual([...AGENTS].sort())
    for (const event of held)
      expect(
        event.status === 'error' ? event.error_code : event.cause,
        `${event.name} ${event.status}`,
      ).toBe('auth')
    // The refused requests never reached the script; nobody retried a refused key.
    expect(team.server.requests.every((request) => 'error' in request.reply)).toBe(true)
    for (const name of AGENTS) expect(requestsOf(team, name).length, name).toBeLessThanOrEqual(1)
    for (const name of AGENTS) expect(team.records(name, 'assistant'), name).toEqual([])
    expect(eventsOf(team, 'team-alert-cleared')).toEqual([])

    team.host.setEndpoint({
      apiKey: 'other',
      baseURL: team.server.url,
      model: 'offline-test',
      maxRetries: 0,
    })
    expect(eventsOf(team, 'team-alert-cleared')).toEqual([
      { type: 'team-alert-cleared', code: 'auth' },
    ])
    await waitFor(
      () => AGENTS.every((name) => team.records(name, 'assistant').length === 1),
      () => 'every agent to get its turn',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    for (const name of AGENTS) {
      expect(statusOf(team, name), name).toBe('idle')
      expect(team.records(name, 'user'), name).toHaveLength(1)
    }
    expect(eventsOf(team, 'team-alert')).toHaveLength(1)
    expect(eventsOf(team, 'agent-error')).toEqual([])
  })
})
