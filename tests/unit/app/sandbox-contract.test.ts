import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { defaultBashSandbox, probeSandbox } from '../../../src/runtime/tools/bash-sandbox'
import { PACKAGE_REGISTRY_HOSTS, sandboxViewSchema } from '../../../src/shared/sandbox'

describe('the contract: getSandbox and setAllowedHosts', () => {
  let root: string | undefined
  let service: AppService | undefined
  afterEach(async () => {
    await service?.close()
    await defaultBashSandbox.close()
    if (root !== undefined) rmSync(root, { recursive: true, force: true })
  })

  it("shows this machine's sandbox and keeps the open team's hosts in .team/sandbox.json", async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-teams-sandbox-contract-'))
    const workspace = join(root, 'workspace')
    mkdirSync(workspace)
    service = await AppService.create({
      mode: 'browser',
      version: '1.0.0',
      configDirectory: join(root, 'config'),
      secrets: plainFileSecretStore(join(root, 'config', 'settings.json')),
      env: { ANTHROPIC_API_KEY: 'test-key' },
    })
    const closed = await service.execute('getSandbox', {})
    expect(closed).toEqual({
      status: probeSandbox(),
      team: null,
      preset: [...PACKAGE_REGISTRY_HOSTS],
    })
    await expect(service.execute('setAllowedHosts', { hosts: ['pypi.org'] })).rejects.toThrow()

    await service.execute('openWorkspace', { path: workspace })
    await expect(
      service.execute('setAllowedHosts', { hosts: ['pypi.org', 'https://evil.example'] }),
    ).rejects.toThrow('The allowed hosts were not saved: "https://evil.example": a host is a name')
    const saved = sandboxViewSchema.parse(
      await service.execute('setAllowedHosts', { hosts: ['PyPI.org', 'crates.io:443'] }),
    )
    expect(saved.team).toEqual({ allowedHosts: ['pypi.org', 'crates.io:443'], problem: null })
    expect(JSON.parse(readFileSync(join(workspace, '.team', 'sandbox.json'), 'utf8'))).toEqual({
      version: 1,
      allowedHosts: ['pypi.org', 'crates.io:443'],
    })
    expect(
      sandboxViewSchema.parse(await service.execute('getSandbox', {})).team?.allowedHosts,
    ).toEqual(['pypi.org', 'crates.io:443'])
  })
})
