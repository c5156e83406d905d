import { afterEach, describe, expect, it } from 'vitest'
import type { AppService } from '../../../src/app/app-service'
import type { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { text } from '../../../src/offline-model/script'
import type { TeamSnapshot } from '../../../src/shared/contract'
import { agentScript, rosterOnDisk } from '../../helpers/agents'
import { appServices } from '../../helpers/app-service'
import { waitFor } from '../../helpers/wait'
import { startFixture, type Fixture } from '../server/fixture'

describe('the contract: spawn with a model, setAgentModel', () => {
  let server: OfflineModelServer | undefined
  const openService = appServices('agent-teams-model-choice-')
  async function open(): Promise<{ workspace: string; service: AppService }> {
    const opened = await openService({
      script: agentScript(() => text('Done.')),
      mode: 'electron',
      modelId: 'claude-team',
    })
    server = opened.server
    return opened
  }

  const requestsOf = (agent: string) =>
    (server?.requests ?? []).filter((request) => request.agent === agent)

  it('lands in config.json, the snapshot and the requests; a change applies to the next turn', async () => {
    const { workspace, service } = await open()
    await service.execute('spawn', {
      name: 'alice',
      role: 'coder',
      prompt: 'Go.',
      model: 'claude-opus-4-1',
      thinking: 3000,
    })
    await service.currentHost?.whenIdle()
    expect(rosterOnDisk(workspace)[0]).toMatchObject({ model: 'claude-opus-4-1', thinking: 3000 })
    expect(requestsOf('alice')[0]?.body).toMatchObject({
      model: 'claude-opus-4-1',
      thinking: { type: 'enabled', budget_tokens: 3000 },
    })

    const changed = await service.execute('setAgentModel', {
      name: 'alice',
      model: null,
      thinking: null,
    })
    expect(changed).toEqual({
      summary: "alice now runs on claude-team (the team's model), thinking off.",
    })
    const snapshot = (await service.execute('getSnapshot', {})) as TeamSnapshot
    expect(snapshot.defaultModel).toBe('claude-team')
    expect(snapshot.members[0]).toMatchObject({ name: 'alice', model: null, thinking: null })
    expect(snapshot.lead).toMatchObject({ model: null, thinking: null })
    await service.execute('sendMessage', { to: 'alice', content: 'Again.' })
    await waitFor(
      () => requestsOf('alice').length === 2,
      () => 'the second request of alice',
    )
    expect(requestsOf('alice')[1]?.body.model).toBe('claude-team')
    expect(requestsOf('alice')[1]?.body.thinking).toBeUndefined()

    await service.execute('setAgentModel', { name: 'lead', model: 'claude-lead', thinking: 1024 })
    const after = (await service.execute('getSnapshot', {})) as TeamSnapshot
    expect(after.lead).toMatchObject({ model: 'claude-lead', thinking: 1024 })
  })

  it('refuses hostile values with the rule, before anything is written', async () => {
    const { workspace, service } = await open()
    await service.execute('spawn', { name: 'alice', role: 'coder', prompt: 'Go.' })
    await service.currentHost?.whenIdle()
    const before = rosterOnDisk(workspace)
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['spawn', { name: 'bob', role: 'r', prompt: 'p', model: 'a b' }, /model: is not a model id/],
      ['spawn', { name: 'bob', role: 'r', prompt: 'p', thinking: 1000 }, /thinking: is below/],
      ['setAgentModel', { name: 'alice', model: '', thinking: null }, /model: is not a model/],
      ['setAgentModel', { name: 'alice', model: null, thinking: 2e6 }, /thinking: is too large/],
      ['setAgentModel', { name: 'alice', model: null }, /thinking/],
      ['setAgentModel', { name: '../x', model: null, thinking: null }, /name/],
      ['setAgentModel', { name: 'nobody', model: null, thinking: null }, /nobody/],
    ]
    for (const [command, params, message] of cases)
      await expect(service.execute(command, params)).rejects.toThrow(message)
    expect(rosterOnDisk(workspace)).toEqual(before)
  })
})

describe('browser mode: setAgentModel over the WebSocket', () => {
  let fixture: Fixture | undefined
  afterEach(() => fixture?.dispose())

  it('changes the model and reports it in a roster-changed event; hostile values are refused', async () => {
    fixture = await startFixture()
    const client = await fixture.connect()
    await client.request('saveSettings', { useOfflineModel: true, leadWakesOnMessages: false })
    await client.request('openWorkspace', { path: fixture.workspace })
    const changed = await client.request('setAgentModel', {
      name: 'lead',
      model: 'claude-lead',
      thinking: 2048,
    })
    expect(changed).toMatchObject({ ok: true, result: { summary: expect.stringMatching(/lead/) } })
    const event = await client.waitForEvent('roster-changed')
    expect(event).toMatchObject({ lead: { model: 'claude-lead', thinking: 2048 } })
    const refused = await client.request('setAgentModel', {
      name: 'lead',
      model: 'claude\u0000x',
      thinking: null,
    })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-argument' } })
  })
})
