import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFixture, type Fixture } from './fixture'

describe('browser mode: the task board over the WebSocket', () => {
  let fixture: Fixture
  beforeEach(async () => {
    fixture = await startFixture()
  })
  afterEach(() => fixture.dispose())

  it('creates, assigns and lists tasks; every client sees tasks-changed', async () => {
    const client = await fixture.connect()
    const other = await fixture.connect()
    await client.request('saveSettings', { useOfflineModel: true, leadWakesOnMessages: false })
    const opened = await client.request('openWorkspace', { path: fixture.workspace })
    expect(opened).toMatchObject({ ok: true, result: { tasks: { tasks: [], problems: [] } } })

    const created = await client.request('createTask', { subject: 'Write the parser' })
    expect(created).toMatchObject({
      ok: true,
      result: { id: '1', subject: 'Write the parser', created_by: 'user', status: 'pending' },
    })
    const event = await other.waitForEvent('tasks-changed')
    expect(event).toMatchObject({ board: { tasks: [{ id: '1', subject: 'Write the parser' }] } })

    // Assigning to an agent that is not on the roster is refused with what to do.
    const refused = await client.request('updateTask', { id: '1', owner: 'nobody' })
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'unknown-agent', message: expect.stringMatching(/"nobody" is not on/) },
    })
    const cycle = await client.request('updateTask', { id: '1', blockedBy: ['1'] })
    expect(cycle).toMatchObject({
      ok: false,
      error: { message: 'Task 1 cannot be blocked by itself.' },
    })
    const bad = await client.request('updateTask', { id: '../1', owner: 'lead' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-argument' } })

    const assigned = await client.request('updateTask', { id: '1', owner: 'lead' })
    expect(assigned).toMatchObject({ ok: true, result: { owner: 'lead', status: 'pending' } })
    const listed = await client.request('listTasks')
    expect(listed).toMatchObject({ ok: true, result: { tasks: [{ id: '1', owner: 'lead' }] } })
  })
})
