import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { AppService, type AppServiceOptions } from '../../src/app/app-service'
import { OfflineModelServer } from '../../src/offline-model/offline-server'
import type { Script } from '../../src/offline-model/script'
import { plainFileSecretStore } from '../../src/runtime/secrets/secrets'

export interface OpenedService {
  readonly workspace: string
  readonly service: AppService
  readonly server: OfflineModelServer
}

/**
 * An AppService as the window drives it, on the offline model over HTTP, with its folder open
 * (`prepare` runs on the folder first). What each call opens is closed after each test.
 */
export function appServices(
  prefix: string,
): (options: {
  script: Script
  mode?: 'electron' | 'browser'
  modelId?: string
  prepare?: (workspace: string) => void
  engineAvailability?: AppServiceOptions['engineAvailability']
}) => Promise<OpenedService> {
  const opened: { root: string; service?: AppService; server?: OfflineModelServer }[] = []
  afterEach(async () => {
    for (const each of opened.splice(0)) {
      await each.service?.close()
      await each.server?.close()
      rmSync(each.root, { recursive: true, force: true })
    }
  })
  return async ({ script, mode = 'browser', modelId = 'm', prepare, engineAvailability }) => {
    const entry: (typeof opened)[number] = { root: mkdtempSync(join(tmpdir(), prefix)) }
    opened.push(entry)
    const workspace = join(entry.root, 'workspace')
    mkdirSync(workspace)
    prepare?.(workspace)
    const server = await OfflineModelServer.start({ script, apiKey: 'test-key' })
    entry.server = server
    const service = await AppService.create({
      // What `prepare` made stands for the person's own team: trusted (tests of trust make
      // their own service).
      trustWorkspace: true,
      mode,
      version: '1.0.0',
      configDirectory: join(entry.root, 'config'),
      secrets: plainFileSecretStore(join(entry.root, 'config', 'settings.json')),
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url, MODEL_ID: modelId },
      ...(engineAvailability === undefined ? {} : { engineAvailability }),
    })
    entry.service = service
    await service.execute('openWorkspace', { path: workspace })
    return { workspace, service, server }
  }
}
