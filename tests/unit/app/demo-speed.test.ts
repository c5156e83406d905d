import { request } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppSettings } from '../../../src/app/app-settings'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { commands } from '../../../src/shared/contract'
import { demoEventDelayMs } from '../../../src/shared/demo-speed'
import { tempWorkspace } from '../../helpers/workspace'

function appSettings(): { settings: AppSettings; file: string } {
  const { dir } = tempWorkspace('agent-teams-demo-speed-')
  const file = join(dir, 'settings.json')
  return { settings: new AppSettings(dir, plainFileSecretStore(file), {}), file }
}

let server: OfflineModelServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** How many separate network reads one streamed reply arrived in. */
function readsOfOneReply(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      model: 'offline-demo',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'hello there, how is the team doing today?' }],
    })
    const call = request(
      `${url}/v1/messages`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' } },
      (response) => {
        let reads = 0
        response.on('data', () => (reads += 1))
        response.on('end', () => resolve(reads))
        response.on('error', reject)
      },
    )
    call.on('error', reject)
    call.end(body)
  })
}

describe('the offline model speed', () => {
  it('is slow by default, saved when changed, and an unknown value reads as the default', async () => {
    const { settings, file } = appSettings()
    expect(settings.view().demoSpeed).toBe('slow')
    expect((await settings.save({ demoSpeed: 'instant' })).demoSpeed).toBe('instant')
    expect(settings.view().demoSpeed).toBe('instant')
    writeFileSync(file, JSON.stringify({ demoSpeed: 'ludicrous', leadWakesOnMessages: false }))
    expect(settings.view()).toMatchObject({ demoSpeed: 'slow', leadWakesOnMessages: false })
  })

  it('refuses an unknown speed through the contract', () => {
    expect(commands.saveSettings.params.safeParse({ demoSpeed: 'fast' }).success).toBe(false)
    expect(commands.saveSettings.params.safeParse({ demoSpeed: 'normal' }).success).toBe(true)
  })

  it('paces the stream when slowed, and sends it whole when instant', async () => {
    expect(demoEventDelayMs('instant')).toBe(0)
    expect(demoEventDelayMs('slow')).toBeGreaterThan(demoEventDelayMs('normal'))
    server = await OfflineModelServer.start({
      script: () => ({
        content: [
          {
            type: 'text',
            text: 'A reply long enough to be streamed in several pieces, one by one.',
          },
        ],
      }),
    })
    expect(await readsOfOneReply(server.url)).toBe(1)
    server.setEventDelay(demoEventDelayMs('slow'))
    expect(await readsOfOneReply(server.url)).toBeGreaterThan(4)
  })
})
