import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'

const folders: string[] = []
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  folders.push(dir)
  return dir
}

function service(): Promise<AppService> {
  const config = folder('agent-teams-config-')
  return AppService.create({
    mode: 'electron',
    version: '0.0.0',
    configDirectory: config,
    secrets: plainFileSecretStore(join(config, 'settings.json')),
    env: {},
  })
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('closing a service (its window) while its folder opens', () => {
  it('closes what the open made: the folder is free for another team at once', async () => {
    const workspace = folder('agent-teams-workspace-')
    const first = await service()
    const opening = first.execute('openWorkspace', { path: workspace })
    await first.close()
    await expect(opening).rejects.toMatchObject({
      message: expect.stringContaining('was closed while it opened'),
    })
    expect(first.currentHost).toBeNull()
    const second = await service()
    try {
      // The lock was released: a second team opens the folder without "already open".
      await expect(second.execute('openWorkspace', { path: workspace })).resolves.toMatchObject({
        workspace,
      })
    } finally {
      await second.close()
    }
  })
})
