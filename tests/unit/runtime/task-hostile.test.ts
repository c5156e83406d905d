import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { TaskBoard } from '../../../src/runtime/tasks/task-board'
import { agentScript } from '../../helpers/agents'
import { HOSTILE_KINDS, makeHostileEntry, REFUSAL } from '../../helpers/hostile-entries'
import { startHost } from '../../helpers/host'
import { tempWorkspace } from '../../helpers/workspace'

describe('hostile entries on the task board', () => {
  it.each(HOSTILE_KINDS)(
    'a %s in place of a task file is reported and skipped; the team opens and the board goes on',
    async (kind) => {
      const workspace = tempWorkspace().dir
      const board = new TaskBoard(join(workspace, '.team'))
      board.create({ subject: 'good', by: 'user' })
      await makeHostileEntry(kind, join(board.directory, '2.json'), { hugeBytes: 5 * 1024 * 1024 })
      const team = await startHost(
        agentScript(() => text('Ok.')),
        { workspace },
      )
      const view = team.host.tasks.view()
      expect(view.tasks.map((task) => task.id)).toEqual(['1'])
      expect(view.problems).toHaveLength(1)
      expect(view.problems[0]?.message).toMatch(REFUSAL[kind])
      // Its id stays taken: the next task is 3, and 2 is refused with the reason.
      expect(team.host.tasks.create({ subject: 'next', by: 'user' }).id).toBe('3')
      expect(team.host.tasks.claim('2', 'lead')).toMatchObject({ ok: false, reason: 'damaged' })
    },
  )

  it('a lock that is not a file refuses changes with what to do, and reads go on', async () => {
    const workspace = tempWorkspace().dir
    const board = new TaskBoard(join(workspace, '.team'))
    board.create({ subject: 'good', by: 'user' })
    await makeHostileEntry('fifo', join(board.directory, 'board.lock'))
    expect(() => board.claim('1', 'alice')).toThrow(/is a named pipe \(FIFO\), not a file/)
    expect(board.list().tasks).toHaveLength(1)
  })

  it('a file in place of the tasks folder is one problem, and creating says why', async () => {
    const workspace = tempWorkspace().dir
    const team = await startHost(
      agentScript(() => text('Ok.')),
      { workspace },
    )
    await team.host.close()
    writeFileSync(join(workspace, '.team', 'tasks'), 'not a folder')
    const again = await startHost(
      agentScript(() => text('Ok.')),
      { workspace },
    )
    const { tasks, problems } = again.host.tasks.view()
    expect(tasks).toEqual([])
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/tasks is unusable: it is not a folder\. Move it aside/),
    ])
    expect(() => again.host.tasks.create({ subject: 'x', by: 'user' })).toThrow(
      /tasks is unusable: .*Move it aside/,
    )
  })
})
