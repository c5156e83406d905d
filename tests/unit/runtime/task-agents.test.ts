import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../src/offline-model/script'
import {
  agentScript,
  requestsOf,
  resultText,
  rosterOnDisk,
  toolResults,
} from '../../helpers/agents'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'

/** The text and error flag of the one tool result in the agent's `call`-th request (1-based). */
function resultOf(
  team: Parameters<typeof requestsOf>[0],
  agent: string,
  call: number,
): { text: string; isError: boolean } {
  const [block] = [...toolResults(requestsOf(team, agent)[call - 1]).values()]
  return { text: resultText(block), isError: block?.is_error === true }
}

describe('the task tools, through agent turns', () => {
  it('the lead plans with dependencies; a teammate claims, is refused, completes', async () => {
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent === 'lead') {
          if (call === 1) return toolCall('create_task', { subject: 'Write the parser' })
          if (call === 2)
            return toolCall('create_task', { subject: 'Test the parser', blocked_by: ['#1'] })
          if (call === 3) return toolCall('update_task', { id: '1', blocked_by: ['2'] })
          if (call === 4)
            return toolCall('spawn_teammate', {
              name: 'alice',
              role: 'coder',
              prompt: 'Take what you can from the board.',
            })
          if (call === 5) return toolCall('list_tasks', {})
          return text('Planned.')
        }
        if (agent === 'alice') {
          if (call === 1) return toolCall('claim_task', { id: '2' })
          if (call === 2) return toolCall('claim_task', { id: '1' })
          if (call === 3) return toolCall('update_task', { id: '2', note: 'mine now?' })
          if (call === 4) return toolCall('complete_task', { id: '1', result: 'Parser written.' })
          return text('Done.')
        }
        return undefined
      }),
    )
    team.host.chat('Build and test a parser.')
    await team.host.whenIdle()

    expect(resultOf(team, 'lead', 2)).toEqual({
      text: 'Created #1 [pending] Write the parser',
      isError: false,
    })
    expect(resultOf(team, 'lead', 4).text).toMatch(/^That would make a cycle \(1 → 2 → 1\)/)
    expect(resultOf(team, 'alice', 2)).toEqual({
      text: 'Task 2 is blocked by task 1 (not done yet).',
      isError: true,
    })
    expect(resultOf(team, 'alice', 3).text).toMatch(/^You hold task #1 now: Write the parser/)
    expect(resultOf(team, 'alice', 4)).toMatchObject({ isError: true })
    expect(resultOf(team, 'alice', 4).text).toMatch(/Task 2 is not yours/)
    expect(resultOf(team, 'alice', 5).text).toBe(
      'Done: #1 [done] Write the parser (owner: alice)\nUnblocked: #2 [pending] Test the parser (after 1)',
    )

    const [parser, test] = team.host.tasks.view().tasks
    expect(parser).toMatchObject({ status: 'done', owner: 'alice', result: 'Parser written.' })
    expect(test).toMatchObject({ status: 'pending', owner: null, created_by: 'lead' })
    // Each task links the turns that made, claimed and completed it.
    expect(parser?.links).toEqual([
      { kind: 'turn', agent: 'lead', seq: expect.any(Number) },
      { kind: 'turn', agent: 'alice', seq: expect.any(Number) },
      { kind: 'turn', agent: 'alice', seq: expect.any(Number) },
    ])
    const turn = parser?.links[1]
    const record =
      turn?.kind === 'turn' ? team.host.transcript('alice').records[turn.seq - 1] : undefined
    expect(record).toMatchObject({ kind: 'assistant' })
    expect(JSON.stringify(record)).toContain('claim_task')
    // The UI hears of every change.
    const last = team.events.filter((event) => event.type === 'tasks-changed').at(-1)
    expect(last?.type === 'tasks-changed' && last.board.tasks[0]?.status).toBe('done')
  })
})

describe('releasing tasks', () => {
  it("a failed agent's task goes back to pending with a note", async () => {
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent !== 'alice') return text('Ok.')
        if (call === 1) return toolCall('claim_task', { id: '1' })
        return {
          fault: 'http',
          status: 400,
          errorType: 'invalid_request_error',
          message: 'broken',
          shouldRetry: false,
        }
      }),
    )
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Claim task 1.' })
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]?.status).toBe('error')
    const [task] = team.host.tasks.view().tasks
    expect(task).toMatchObject({ status: 'pending', owner: null })
    expect(task?.notes.at(-1)?.text).toMatch(/^released: alice failed/)
  })

  it('after a restart, tasks held by the dead run are released; other programs keep theirs', async () => {
    const team = await startHost(agentScript(() => text('Ok.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Hello.' })
    await team.host.whenIdle()
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    team.host.tasks.create({ subject: 'Run the nightly job', by: 'user' })
    expect(team.host.team.tasks.claim('1', 'alice').ok).toBe(true)
    expect(team.host.team.tasks.claim('2', 'cron-job').ok).toBe(true)

    const again = await team.restart()
    const [parser, nightly] = again.host.tasks.view().tasks
    expect(parser).toMatchObject({ status: 'pending', owner: null })
    expect(parser?.notes.at(-1)?.text).toBe(
      'released: alice was not running when the team opened (a restart)',
    )
    expect(nightly).toMatchObject({ status: 'in_progress', owner: 'cron-job' })
  })
})

describe('auto-claim', () => {
  it('an idle teammate with auto-claim takes the task that fits its role, then the next, and says so', async () => {
    const team = await startHost(
      agentScript((agent, call) => {
        if (agent === 'lead') return text('Noted.')
        if (call === 1) return text('Ready for tasks.')
        if (call === 2) return toolCall('complete_task', { id: '2', result: 'Tests pass.' })
        if (call === 3) return text('Tested.')
        if (call === 4) return toolCall('complete_task', { id: '1', result: 'Parser written.' })
        return text('Written.')
      }),
    )
    await team.host.spawn({
      name: 'bob',
      role: 'tester',
      prompt: 'Wait for work.',
      autoClaim: true,
    })
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).toMatchObject({ name: 'bob', auto_claim: true })

    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    team.host.tasks.create({ subject: 'Test the parser', by: 'user' })
    await waitFor(
      () => team.host.tasks.view().tasks.every((task) => task.status === 'done'),
      () => JSON.stringify(team.host.tasks.view().tasks.map((task) => task.status)),
      { timeout: 10_000 },
    )
    await team.host.whenIdle()

    const claims = team.events.flatMap((event) =>
      event.type === 'task-auto-claimed' ? [[event.agent, event.task]] : [],
    )
    // The tester's task first (its role fits), then the other one.
    expect(claims).toEqual([
      ['bob', '2'],
      ['bob', '1'],
    ])
    const turns = team.records('bob', 'user').map((record) => [record.from, record.text])
    expect(turns[1]?.[0]).toBe('task-board')
    expect(turns[1]?.[1]).toMatch(/^You claimed task #2 from the board \(auto-claim\): Test the/)
    // The lead was told, and the message is linked from the task.
    const toLead = team.events.flatMap((event) =>
      event.type === 'message-sent' && event.message.to === 'lead' ? [event.message] : [],
    )
    expect(toLead.map((message) => [message.from, message.content])).toEqual([
      ['bob', 'I claimed task #2 from the board (auto-claim): Test the parser'],
      ['bob', 'I claimed task #1 from the board (auto-claim): Write the parser'],
    ])
    const test = team.host.tasks.view().tasks[1]
    expect(test?.links).toContainEqual(
      expect.objectContaining({ kind: 'message', id: toLead[0]?.id }),
    )
    expect(test).toMatchObject({ owner: 'bob', status: 'done', result: 'Tests pass.' })
  })
})
