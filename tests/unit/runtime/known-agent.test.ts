import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { text } from '../../../src/offline-model/script'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { agentScript } from '../../helpers/agents'
import { cli } from '../../helpers/cli'
import { eventsOf } from '../../helpers/faults'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'
import { tempWorkspace } from '../../helpers/workspace'

const BAD_NAMES = [
  ['../x', 'invalid-name'],
  ['LEAD', 'invalid-name'],
  ['nobody', 'unknown-agent'],
  ['user', 'unknown-agent'],
] as const

async function openService(): Promise<{ service: AppService; workspace: string }> {
  const workspace = tempWorkspace().dir
  const config = tempWorkspace('agent-teams-config-').dir
  const service = await AppService.create({
    mode: 'browser',
    version: '0.0.0',
    configDirectory: config,
    secrets: plainFileSecretStore(join(config, 'settings.json')),
    env: {},
    workspace,
  })
  onTestFinished(() => service.close())
  await service.execute('saveSettings', { useOfflineModel: true })
  return { service, workspace }
}

function configText(workspace: string): string {
  return readFileSync(join(workspace, '.team', 'config.json'), 'utf8')
}

describe('every agent name goes through the name rule and the roster', () => {
  it('AppService refuses ../x, LEAD, nobody and user for every command naming an agent', async () => {
    const { service, workspace } = await openService()
    const before = configText(workspace)
    const commands = [
      ['setBudget', (name: string) => ({ name, tokens: 50_000, rounds: 20 })],
      ['stopAgent', (name: string) => ({ name })],
      ['setAgentModel', (name: string) => ({ name, model: 'claude-x', thinking: null })],
      ['resumeAgent', (name: string) => ({ name })],
      ['requestShutdown', (name: string) => ({ name })],
      ['getTranscript', (name: string) => ({ name })],
      ['getInbox', (name: string) => ({ name })],
    ] as const
    for (const [command, params] of commands)
      for (const [name, code] of BAD_NAMES)
        await expect(
          service.execute(command, params(name)),
          `${command} ${name}`,
        ).rejects.toMatchObject({ code })
    expect(configText(workspace)).toBe(before)
    expect(configText(workspace)).not.toContain('budgets')

    // The lead and the team are fine.
    await service.execute('setBudget', { name: 'lead', tokens: 50_000, rounds: 20 })
    await service.execute('setBudget', { name: null, tokens: null, rounds: 5, usd: 2.5 })
    const snapshot = (await service.execute('getSnapshot', {})) as {
      lead: { budget: unknown }
      teamBudget: unknown
    }
    // No usd given: the dollar limit stays as it was (none).
    expect(snapshot.lead.budget).toEqual({ tokens: 50_000, rounds: 20, usd: null })
    expect(snapshot.teamBudget).toEqual({ tokens: null, rounds: 5, usd: 2.5 })
  })

  it('a budget for a bad name appended to control.jsonl changes nothing and is reported', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    const before = configText(team.workspace)
    for (const [name] of BAD_NAMES)
      appendFileSync(
        join(team.workspace, '.team', 'control.jsonl'),
        `${JSON.stringify({ command: 'budget', name, tokens: 5, rounds: null })}\n`,
      )
    await waitFor(() => eventsOf(team, 'agent-error').length === BAD_NAMES.length)
    // A name against the name rule is refused with the line (the control schema); a valid name
    // off the roster is refused by the roster check.
    expect(eventsOf(team, 'agent-error').map((event) => event.code)).toEqual(
      BAD_NAMES.map(([, code]) => (code === 'invalid-name' ? 'invalid-control' : code)),
    )
    expect(configText(team.workspace)).toBe(before)

    // The CLI says so itself, before it asks the running team.
    const result = await cli(['budget', 'nobody', '--tokens', '5', '--workspace', team.workspace])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/"nobody" is not on the roster/)
    const uppercase = await cli(['budget', 'LEAD', '--tokens', '5', '--workspace', team.workspace])
    expect(uppercase.code).toBe(1)
    expect(configText(team.workspace)).toBe(before)
  })
})
