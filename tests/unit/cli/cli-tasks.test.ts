import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskBoard } from '../../../src/runtime/tasks/task-board'
import { boardText, taskLine } from '../../../src/runtime/tasks/task-text'
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../src/shared/tasks'
import { cli } from '../../helpers/cli'

let workspace: string
let at: string[]

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'agent-teams-cli-tasks-'))
  at = ['--workspace', workspace]
})
afterEach(() => rmSync(workspace, { recursive: true, force: true }))

/** Writes task files as the board keeps them: a board made in one step, with every status. */
function writeTasks(
  tasks: readonly { id: number; status: TaskStatus; owner?: string; after?: number[] }[],
): void {
  const directory = join(workspace, '.team', 'tasks')
  mkdirSync(directory, { recursive: true })
  for (const each of tasks) {
    const task: Task = {
      v: 1,
      id: String(each.id),
      subject: `Task ${each.id}`,
      description: '',
      status: each.status,
      owner: each.owner ?? null,
      blocked_by: (each.after ?? []).map(String),
      created_by: 'lead',
      created_at: 1_800_000_000,
      updated_at: 1_800_000_000,
      links: [],
      result: null,
      notes: [],
    }
    writeFileSync(join(directory, `${task.id}.json`), JSON.stringify(task))
  }
}

describe('agent-teams tasks', () => {
  it('add prints the id; list and show describe the board', async () => {
    expect(await cli(['tasks', 'add', 'Write the parser', ...at])).toMatchObject({
      code: 0,
      stdout: '1\n',
    })
    const second = await cli([
      'tasks',
      'add',
      'Test the parser',
      '--description',
      'Cover the edge cases.',
      '--blocked-by',
      '1',
      '--json',
      ...at,
    ])
    expect(second.code).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({
      id: '2',
      blocked_by: ['1'],
      created_by: 'user',
      description: 'Cover the edge cases.',
    })
    expect((await cli(['tasks', 'list', ...at])).stdout).toBe(
      '#1 [pending] Write the parser\n#2 [pending] Test the parser (blocked by 1)\n',
    )
    const listed = JSON.parse((await cli(['tasks', 'list', '--json', ...at])).stdout)
    expect(listed.tasks.map((task: { id: string }) => task.id)).toEqual(['1', '2'])
    expect((await cli(['tasks', 'show', '2', ...at])).stdout).toMatch(
      /^#2 \[pending\] Test the parser \(blocked by 1\)\ncreated by user at .*\n\nCover the edge cases\.\n$/,
    )
  })

  it('claim: exit 0 when won, 1 when taken or blocked, saying which', async () => {
    await cli(['tasks', 'add', 'a', ...at])
    await cli(['tasks', 'add', 'b', '--blocked-by', '1', ...at])
    const won = await cli(['tasks', 'claim', '1', '--as', 'alice', ...at])
    expect(won).toMatchObject({ code: 0, stdout: 'alice claimed task 1: a.\n' })
    const taken = await cli(['tasks', 'claim', '1', '--as', 'bob', ...at])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toBe('agent-teams tasks claim: Task 1 is already claimed by alice.\n')
    const blocked = await cli(['tasks', 'claim', '2', '--as', 'bob', '--json', ...at])
    expect(blocked.code).toBe(1)
    expect(JSON.parse(blocked.stdout)).toMatchObject({
      claimed: false,
      reason: 'blocked',
      blockers: ['1'],
    })
    const done = await cli(['tasks', 'done', '1', '--as', 'alice', '--result', 'Parsed.', ...at])
    expect(done.code).toBe(0)
    expect(done.stdout).toBe(
      'Done: #1 [done] a (owner: alice)\nUnblocked: #2 [pending] b (after 1)\n',
    )
    expect((await cli(['tasks', 'claim', '2', '--as', 'bob', ...at])).code).toBe(0)
  })

  it('refuses bad arguments with a clear message and a non-zero exit', async () => {
    await cli(['tasks', 'add', 'a', ...at])
    const cases: [string[], number, RegExp][] = [
      [['tasks'], 2, /needs a subcommand: add, list, claim, done or show/],
      [['tasks', 'take', '1'], 2, /has no subcommand "take"/],
      [['tasks', 'claim', '1'], 2, /needs --as <name>/],
      [['tasks', 'claim', 'one', '--as', 'bob'], 2, /"one" is not a task id/],
      [['tasks', 'claim', '1', '--as', '../x'], 2, /--as "\.\.\/x"/],
      [['tasks', 'add', 'b', '--blocked-by', '7'], 1, /Task 7 does not exist/],
      [['tasks', 'add', 'b', '--blocked-by', 'x'], 2, /"x" is not a task id/],
      [['tasks', 'add', '  '], 2, /the subject is empty/],
      [['tasks', 'add', 'two', 'words'], 2, /quote text with spaces/],
      [['tasks', 'done', '1', '--as', 'bob'], 1, /Task 1 is not claimed; only its owner/],
      [['tasks', 'show', '9'], 1, /There is no task 9\./],
      [['tasks', 'list', '--bogus'], 2, /Unknown option '--bogus'/],
    ]
    for (const [args, code, message] of cases) {
      const result = await cli([...args, ...at])
      expect([args.join(' '), result.code]).toEqual([args.join(' '), code])
      expect(result.stderr).toMatch(message)
    }
  })

  it('lists a damaged task file as skipped, and goes on', async () => {
    await cli(['tasks', 'add', 'a', ...at])
    writeFileSync(join(workspace, '.team', 'tasks', '2.json'), 'not json')
    const listed = await cli(['tasks', 'list', ...at])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(
      /^#1 \[pending\] a\n\(skipped\) Task file 2\.json is skipped: it is not valid JSON/,
    )
    expect((await cli(['tasks', 'claim', '2', '--as', 'bob', ...at])).stderr).toMatch(
      /2\.json is skipped/,
    )
  })

  it('list prints a board with dependencies line for line as it always has', async () => {
    // The text of the version before the board's statuses were looked up once per listing.
    writeTasks([
      { id: 1, status: 'done', owner: 'alice' },
      { id: 2, status: 'pending', after: [1] },
      { id: 3, status: 'in_progress', owner: 'bob', after: [1] },
      { id: 4, status: 'pending', after: [1, 3] },
      { id: 5, status: 'pending', after: [9] },
      { id: 6, status: 'review', owner: 'carol', after: [4] },
      { id: 7, status: 'cancelled' },
      { id: 8, status: 'pending', owner: 'dave', after: [2, 4, 6, 1] },
      { id: 10, status: 'pending' },
    ])
    expect((await cli(['tasks', 'list', ...at])).stdout).toBe(
      [
        '#1 [done] Task 1 (owner: alice)',
        '#2 [pending] Task 2 (after 1)',
        '#3 [in_progress] Task 3 (owner: bob; after 1)',
        '#4 [pending] Task 4 (blocked by 3)',
        '#5 [pending] Task 5 (blocked by 9)',
        '#6 [review] Task 6 (owner: carol; after 4)',
        '#7 [cancelled] Task 7',
        '#8 [pending] Task 8 (owner: dave; blocked by 2, 4, 6)',
        '#10 [pending] Task 10',
        '',
      ].join('\n'),
    )
  })

  it('list of a large board says of each task what its line alone says', () => {
    writeTasks(
      Array.from({ length: 400 }, (_, index) => {
        const id = index + 1
        const after = id === 1 ? [] : id % 3 === 0 ? [id - 1, Math.ceil(id / 2)] : [id - 1]
        return { id, status: TASK_STATUSES[(id * 7) % TASK_STATUSES.length] ?? 'pending', after }
      }),
    )
    const board = new TaskBoard(join(workspace, '.team')).list()
    expect(board.tasks).toHaveLength(400)
    const text = boardText(board)
    expect(text).toBe(board.tasks.map((task) => taskLine(task, board.tasks)).join('\n'))
    expect(text).toMatch(/\(blocked by \d+/)
    expect(text).toMatch(/\[pending\] Task \d+ \(after \d+/)
  })
})
