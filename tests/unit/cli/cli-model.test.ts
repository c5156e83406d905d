import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { parseControlLine } from '../../../src/shared/control'
import { agentScript, requestsOf, rosterOnDisk } from '../../helpers/agents'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'

describe('agent-teams spawn and model', () => {
  it('spawn --model --thinking: in config.json, in the request, and said as done', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    const workspace = ['--workspace', team.workspace]
    const result = await cli([
      'spawn',
      'alice',
      'Write the parser.',
      '--role',
      'coder',
      '--model',
      'claude-opus-4-1',
      '--thinking',
      '2048',
      ...workspace,
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('Spawned alice (coder) on claude-opus-4-1, thinking 2,048 tokens.\n')
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).toMatchObject({
      name: 'alice',
      role: 'coder',
      model: 'claude-opus-4-1',
      thinking: 2048,
    })
    const [request] = requestsOf(team, 'alice')
    expect(request?.body.model).toBe('claude-opus-4-1')
    expect(request?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    expect(team.records('alice', 'user').map((record) => [record.from, record.text])).toEqual([
      ['user', 'Write the parser.'],
    ])

    const roster = await cli(['roster', ...workspace])
    expect(roster.stdout).toMatch(/alice \(coder\): \w+ · claude-opus-4-1, thinking 2,048 tokens/)
  })

  it('model: shows, changes from the next turn, goes back to the default; the lead too', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.', model: 'claude-a' })
    await team.host.whenIdle()
    const workspace = ['--workspace', team.workspace]

    expect((await cli(['model', 'alice', ...workspace])).stdout).toBe(
      'alice: claude-a, thinking off.\n',
    )
    const changed = await cli([
      'model',
      'alice',
      '--model',
      'claude-b',
      '--thinking',
      '1024',
      ...workspace,
    ])
    expect(changed.code).toBe(0)
    expect(changed.stdout).toBe(
      'alice runs on claude-b, thinking 1,024 tokens from its next turn.\n',
    )
    team.host.send({ to: 'alice', content: 'Second.' })
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')[1]?.body).toMatchObject({
      model: 'claude-b',
      thinking: { type: 'enabled', budget_tokens: 1024 },
    })

    const back = await cli([
      'model',
      'alice',
      '--model',
      'default',
      '--thinking',
      'off',
      '--json',
      ...workspace,
    ])
    expect(JSON.parse(back.stdout)).toEqual({ name: 'alice', model: null, thinking: null })
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('model')

    const lead = await cli(['model', 'lead', '--model', 'claude-lead', ...workspace])
    expect(lead.stdout).toBe('lead runs on claude-lead, thinking off from its next turn.\n')
    team.host.chat('Hello.')
    await team.host.whenIdle()
    expect(requestsOf(team, 'lead')[0]?.body.model).toBe('claude-lead')
  })

  it('refuses hostile values before anything reaches the team, with the rule', async () => {
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.' })
    await team.host.whenIdle()
    const workspace = ['--workspace', team.workspace]
    const spawnBob = (...extra: string[]) =>
      cli(['spawn', 'bob', 'Go.', '--role', 'tester', ...extra, ...workspace])

    const badModel = await spawnBob('--model', 'claude; rm -rf /')
    expect(badModel.code).toBe(1)
    expect(badModel.stderr).toMatch(/Invalid model: "claude; rm -rf \/" may hold only letters/)
    const lowBudget = await spawnBob('--thinking', '512')
    expect(lowBudget.code).toBe(1)
    expect(lowBudget.stderr).toMatch(/Invalid thinking: 512 is below the API's minimum/)
    const notANumber = await spawnBob('--thinking', 'lots')
    expect(notANumber.code).toBe(2)
    expect(notANumber.stderr).toMatch(/--thinking takes a budget in tokens/)
    const noRole = await cli(['spawn', 'bob', 'Go.', ...workspace])
    expect(noRole.code).toBe(2)
    const reserved = await cli(['spawn', 'lead', 'Go.', '--role', 'x', ...workspace])
    expect(reserved.code).toBe(1)
    expect(reserved.stderr).toMatch(/reserved/)
    const unknown = await cli(['model', 'nobody', '--model', 'claude-x', ...workspace])
    expect(unknown.code).toBe(1)
    expect(rosterOnDisk(team.workspace).map((member) => member.name)).toEqual(['alice'])

    // Another program's hostile line is refused by the runtime, logged with its reason.
    const hostile = '{"command":"model","name":"alice","model":"../../x","thinking":1e9}'
    expect(parseControlLine(hostile)).toMatchObject({ ok: false })
    appendFileSync(join(team.workspace, '.team', 'control.jsonl'), `${hostile}\n`)
    const log = join(team.workspace, '.team', 'control-rejected.jsonl')
    await waitFor(
      () => {
        try {
          return readFileSync(log, 'utf8').includes('not a model id')
        } catch {
          return false
        }
      },
      () => 'the refusal in control-rejected.jsonl',
    )
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('model')
  })
})
