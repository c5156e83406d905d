import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../src/offline-model/script'
import {
  agentScript,
  gate,
  requestsOf,
  resultText,
  rosterOnDisk,
  toolResults,
} from '../../helpers/agents'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'

describe('the board and a running team', () => {
  it("another program's edits reach the running team as tasks-changed, through the watcher", async () => {
    const team = await startHost(agentScript(() => text('Ok.')))
    const at = ['--workspace', team.workspace]
    expect((await cli(['tasks', 'add', 'Write the parser', ...at])).code).toBe(0)
    const boards = () =>
      team.events.flatMap((event) => (event.type === 'tasks-changed' ? [event.board] : []))
    await waitFor(
      () => boards().at(-1)?.tasks[0]?.subject === 'Write the parser',
      () => 'a tasks-changed event with the new task',
    )
    expect((await cli(['tasks', 'claim', '1', '--as', 'cron-job', ...at])).code).toBe(0)
    await waitFor(
      () => boards().at(-1)?.tasks[0]?.owner === 'cron-job',
      () => 'a tasks-changed event with the claim',
    )
    expect(team.host.tasks.view().tasks[0]).toMatchObject({
      status: 'in_progress',
      owner: 'cron-job',
    })
  })

  it('agent-teams spawn --auto-claim turns auto-claim on in config.json', async () => {
    const team = await startHost(agentScript(() => text('Ok.')))
    const result = await cli([
      'spawn',
      'bob',
      'Wait for work.',
      '--role',
      'tester',
      '--auto-claim',
      '--workspace',
      team.workspace,
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).toMatchObject({ name: 'bob', auto_claim: true })
  })

  it('stopping an agent gives its task back, with a note', async () => {
    const held = gate()
    let asked = false
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent !== 'alice') return text('Ok.')
        if (call === 1) return toolCall('claim_task', { id: '1' })
        asked = true
        return held.hold(text('Done.'))
      }),
    )
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Claim task 1.' })
    await waitFor(
      () => asked,
      () => "alice's second model call",
    )
    expect(team.host.tasks.view().tasks[0]?.owner).toBe('alice')
    team.host.stop('alice')
    held.open()
    await team.host.whenIdle()
    const [task] = team.host.tasks.view().tasks
    expect(task).toMatchObject({ status: 'pending', owner: null })
    expect(task?.notes.at(-1)?.text).toBe('released: alice was stopped')
  })
})

describe('auto-claim and the person', () => {
  it('a stopped teammate with auto-claim does not take its released task back by itself', async () => {
    const held = gate()
    let asked = false
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent !== 'bob') return text('Ok.')
        if (call === 1) return text('Ready.')
        asked = true
        return held.hold(text('Working on it.'))
      }),
    )
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.', autoClaim: true })
    await team.host.whenIdle()
    team.host.tasks.create({ subject: 'Test the parser', by: 'user' })
    await waitFor(
      () => asked,
      () => "bob's auto-claimed turn",
    )
    team.host.stop('bob')
    held.open()
    await team.host.whenIdle()
    // Released, and not claimed again: the stop holds until the person or a message wakes bob.
    await new Promise((resolve) => setImmediate(resolve))
    await team.host.whenIdle()
    expect(team.host.tasks.view().tasks[0]).toMatchObject({ status: 'pending', owner: null })
    expect(
      team.events.filter((event) => event.type === 'task-auto-claimed').map((event) => event.type),
    ).toHaveLength(1)
  })

  it("list_teammates tells the lead each teammate's current task", async () => {
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent === 'lead' && call === 1) return toolCall('list_teammates', {})
        return text('Ok.')
      }),
    )
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Hello.' })
    await team.host.whenIdle()
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    expect(team.host.tasks.claim('1', 'alice').ok).toBe(true)
    team.host.chat('Who does what?')
    await team.host.whenIdle()
    const [list] = [...toolResults(requestsOf(team, 'lead')[1]).values()]
    expect(resultText(list)).toMatch(
      /alice \(coder\): idle, on task #1 \(in progress\): Write the parser/,
    )
  })
})
