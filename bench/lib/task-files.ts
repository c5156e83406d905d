// Writes a task board straight into `.team/tasks/`: many tasks with dependencies and every
// status, so that a benchmark lists a large board without creating it task by task.
import { mkdirSync, writeFileSync } from 'node:fs'
import { tasksDirectory, taskFile } from '../../src/runtime/tasks/task-files'
import { TeamPaths } from '../../src/runtime/team/paths'
import { TASK_STATUSES, taskSchema, type Task } from '../../src/shared/tasks'

/** Task `id` of a board of tasks numbered from 1; each waits on one or two earlier tasks. */
export function boardTask(id: number, at: number): Task {
  const status = TASK_STATUSES[id % TASK_STATUSES.length] ?? 'pending'
  const blockedBy = id === 1 ? [] : id % 3 === 0 ? [id - 1, Math.ceil(id / 2)] : [id - 1]
  return {
    v: 1,
    id: String(id),
    subject: `Write the parser for module ${id}`,
    description: `Module ${id}: parse its input and report every line it cannot read.`,
    status,
    owner: status === 'pending' ? null : `agent-${id % 20}`,
    blocked_by: [...new Set(blockedBy)].map(String),
    created_by: 'lead',
    created_at: at,
    updated_at: at,
    links: [],
    result: status === 'done' ? `Module ${id} parses; tests pass.` : null,
    notes: [],
  }
}

/** Writes tasks 1..count into the workspace's board. */
export function writeBoard(workspace: string, count: number): void {
  const directory = tasksDirectory(new TeamPaths(workspace).root)
  mkdirSync(directory, { recursive: true })
  const at = Date.now() / 1000
  for (let id = 1; id <= count; id++) {
    const task = boardTask(id, at)
    if (id === 1) taskSchema.parse(task)
    writeFileSync(taskFile(directory, task.id), `${JSON.stringify(task, null, 2)}\n`)
  }
}
