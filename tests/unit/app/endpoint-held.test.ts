import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { text } from '../../../src/offline-model/script'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import type { HostEvent } from '../../../src/shared/contract'
import { agentScript } from '../../helpers/agents'
import { waitFor } from '../../helpers/wait'

const opened: { root: string; services: AppService[]; server?: OfflineModelServer }[] = []
afterEach(async () => {
  for (const each of opened.splice(0)) {
    for (const service of each.services) await service.close()
    await each.server?.close()
    rmSync(each.root, { recursive: true, force: true })
  }
})

/**
 * Services as windows use them: the key in the settings (not the environment, so that saving
 * it counts), the address in the environment, on an offline server that wants `test-key`.
 */
async function setUp(): Promise<{
  server: OfflineModelServer
  service: () => Promise<AppService>
  workspace: (name: string) => string
}> {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-endpoint-'))
  const entry: (typeof opened)[number] = { root, services: [] }
  opened.push(entry)
  const script = agentScript((agent) => text(`${agent} got through.`))
  const server = await OfflineModelServer.start({ script, apiKey: 'test-key' })
  entry.server = server
  const config = join(root, 'config')
  return {
    server,
    service: async () => {
      const service = await AppService.create({
        trustWorkspace: true,
        mode: 'browser',
        version: '1.0.0',
        configDirectory: config,
        secrets: plainFileSecretStore(join(config, 'settings.json')),
        env: { ANTHROPIC_BASE_URL: server.url, MODEL_ID: 'm' },
      })
      entry.services.push(service)
      return service
    },
    workspace: (name) => {
      const folder = join(root, name)
      mkdirSync(folder)
      return folder
    },
  }
}

function recording(service: AppService): HostEvent[] {
  const events: HostEvent[] = []
  service.onEvent((event) => events.push(event))
  return events
}

function count(events: readonly HostEvent[], type: HostEvent['type']): number {
  return events.filter((event) => event.type === type).length
}

describe('the endpoint the app service holds', () => {
  it('is used by a chat as it is: no new client, and agents paused for a refused key stay paused', async () => {
    const { server, service: newService, workspace } = await setUp()
    const service = await newService()
    await service.execute('saveSettings', { apiKey: 'wrong-key' })
    await service.execute('openWorkspace', { path: workspace('team') })
    const events = recording(service)
    const host = service.currentHost!
    const endpoint = host.endpoint
    expect(endpoint).toMatchObject({ apiKey: 'wrong-key', baseURL: server.url })

    // alice's first call is refused: one alert, and she ends on the refused key.
    await service.execute('spawn', { name: 'alice', role: 'coder', prompt: 'Work.' })
    await waitFor(
      () => count(events, 'team-alert') === 1,
      () => 'the refused-key alert',
    )
    await host.whenIdle()
    expect(server.requests).toHaveLength(1)

    // The person chats and sends mail, and saves a setting that is not the endpoint's.
    await service.execute('chat', { text: 'Hello?' })
    await service.execute('sendMessage', { to: 'alice', content: 'Still there?' })
    await service.execute('saveSettings', { leadWakesOnMessages: false })
    await host.whenIdle()
    expect(count(events, 'team-alert-cleared')).toBe(0)
    // Nobody called the model with the key it refused: both paused before their calls.
    expect(server.requests).toHaveLength(1)
    expect(host.roster().lead.status).toBe('waiting')
    expect(host.team.roster.find('alice')?.status).toBe('waiting')
    expect(host.endpoint).toBe(endpoint)

    // A new key is an endpoint change: the alert clears and both go on.
    await service.execute('saveSettings', { apiKey: 'test-key' })
    expect(host.endpoint).not.toBe(endpoint)
    expect(host.endpoint).toMatchObject({ apiKey: 'test-key', baseURL: server.url })
    expect(count(events, 'team-alert-cleared')).toBe(1)
    await waitFor(
      () => ['lead', 'alice'].every((name) => server.requests.some((r) => r.agent === name)),
      () => 'the lead and alice to call the model again',
    )
    await host.whenIdle()
    expect(host.roster().lead.status).toBe('idle')
    expect(host.team.roster.find('alice')?.status).toBe('idle')
    expect(server.requests.filter((request) => 'error' in request.reply)).toHaveLength(1)
  })

  it('follows a key another window saved (one settings file for every window)', async () => {
    const { server, service: newService, workspace } = await setUp()
    const first = await newService()
    await first.execute('saveSettings', { apiKey: 'wrong-key' })
    await first.execute('openWorkspace', { path: workspace('one') })
    const second = await newService()
    await second.execute('openWorkspace', { path: workspace('two') })
    expect(second.currentHost!.endpoint.apiKey).toBe('wrong-key')

    await first.execute('saveSettings', { apiKey: 'test-key' })
    // Until it hears of the change, the other team keeps its endpoint: a chat rebuilds nothing.
    await second.execute('chat', { text: 'Hello.' })
    await second.currentHost!.whenIdle()
    expect(second.currentHost!.endpoint.apiKey).toBe('wrong-key')
    await second.settingsChanged()
    expect(second.currentHost!.endpoint).toMatchObject({ apiKey: 'test-key', baseURL: server.url })
  })

  it('refuses a command that would call the model when no key is set, and builds nothing', async () => {
    const { server, service: newService, workspace } = await setUp()
    const service = await newService()
    await service.execute('openWorkspace', { path: workspace('team') })
    const endpoint = service.currentHost!.endpoint
    await expect(service.execute('chat', { text: 'Hello?' })).rejects.toThrow(/No API key is set/)
    await service.execute('saveSettings', { leadWakesOnMessages: false })
    expect(service.currentHost!.endpoint).toBe(endpoint)
    expect(server.requests).toHaveLength(0)
  })
})
