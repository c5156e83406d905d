import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { resumeAll, stopAll, type TeamWideHost } from '../../../src/runtime/host/team-wide'
import type { HostEvent } from '../../../src/shared/contract'
import type { MemberStatus } from '../../../src/shared/roster'

function recordingHost(statuses: Record<string, MemberStatus>) {
  const calls: string[] = []
  const host: TeamWideHost = {
    roster: () => ({
      lead: { name: 'lead', status: statuses['lead'] ?? 'idle' },
      members: Object.entries(statuses)
        .filter(([name]) => name !== 'lead')
        .map(([name, status]) => ({ name, status })),
    }),
    stop: (name) => calls.push(`stop ${name}`),
    resume: (name) => calls.push(`resume ${name}`),
  }
  return { host, calls }
}

const team: Record<string, MemberStatus> = {
  lead: 'working',
  alice: 'waiting',
  bob: 'stalled',
  carol: 'error',
  dave: 'idle',
  erin: 'shutdown',
}

describe('Stop all / Resume all', () => {
  it('stops the agents that work, wait or stall, and no one else', () => {
    const { host, calls } = recordingHost(team)
    expect(stopAll(host)).toBe(3)
    expect(calls).toEqual(['stop lead', 'stop alice', 'stop bob'])
  })

  it('resumes the agents that wait, stalled or failed; idle and shut-down ones stay', () => {
    const { host, calls } = recordingHost(team)
    expect(resumeAll(host)).toBe(3)
    expect(calls).toEqual(['resume alice', 'resume bob', 'resume carol'])
  })
})

describe('AppService: the team-wide commands and closeWorkspace', () => {
  let root: string | undefined
  let service: AppService | undefined
  afterEach(async () => {
    await service?.close()
    if (root !== undefined) rmSync(root, { recursive: true, force: true })
  })

  it('closes the open team, says so, and refuses team commands until a folder is open', async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-teams-team-wide-'))
    const workspace = join(root, 'workspace')
    mkdirSync(workspace)
    service = await AppService.create({
      mode: 'electron',
      version: '1.0.0',
      configDirectory: join(root, 'config'),
      secrets: plainFileSecretStore(join(root, 'config', 'settings.json')),
      env: {},
    })
    const events: HostEvent['type'][] = []
    service.onEvent((event) => events.push(event.type))
    await service.execute('openWorkspace', { path: workspace })
    expect(await service.execute('stopAll', {})).toEqual({ count: 0 })

    expect(await service.execute('closeWorkspace', {})).toEqual({})
    expect(events).toContain('workspace-closed')
    expect(await service.execute('getInfo', {})).toMatchObject({ workspace: null })
    expect(await service.execute('getSnapshot', {})).toBeNull()
    await expect(service.execute('stopAll', {})).rejects.toMatchObject({
      code: 'no-workspace',
      message: 'Open a workspace first.',
    })
    // Closing twice is harmless: nothing is open.
    expect(await service.execute('closeWorkspace', {})).toEqual({})
  })
})
