import { formatSecondsUtc } from '../../shared/time'
import {
  openBlockers,
  taskStatuses,
  type Task,
  type TaskBoardView,
  type TaskStatuses,
} from '../../shared/tasks'

/**
 * One line: `#3 [pending] Write the parser (owner: alice; blocked by 1, 2)`. For many lines of
 * one board, pass its `taskStatuses` rather than its tasks (see `openBlockers`).
 */
export function taskLine(task: Task, tasks: readonly Task[] | TaskStatuses): string {
  const details: string[] = []
  if (task.owner !== null) details.push(`owner: ${task.owner}`)
  const open = task.status === 'pending' ? openBlockers(task, tasks) : []
  if (open.length > 0) details.push(`blocked by ${open.join(', ')}`)
  else if (task.blocked_by.length > 0) details.push(`after ${task.blocked_by.join(', ')}`)
  return `#${task.id} [${task.status}] ${task.subject}${details.length > 0 ? ` (${details.join('; ')})` : ''}`
}

/** ", on task #3 (in progress): Write the parser" for list_teammates; empty when it holds none. */
export function currentTaskNote(name: string, tasks: readonly Task[]): string {
  const task =
    tasks.find((each) => each.owner === name && each.status === 'in_progress') ??
    tasks.find((each) => each.owner === name && each.status === 'review')
  if (task === undefined) return ''
  return `, on task #${task.id} (${task.status === 'review' ? 'in review' : 'in progress'}): ${task.subject}`
}

/** The board as text for a person or a model: a line a task, then the files that were skipped. */
export function boardText(board: TaskBoardView): string {
  const statuses = taskStatuses(board.tasks)
  const lines =
    board.tasks.length === 0 ? ['No tasks.'] : board.tasks.map((task) => taskLine(task, statuses))
  for (const problem of board.problems) lines.push(`(skipped) ${problem.message}`)
  return lines.join('\n')
}

/** Every field of one task, for `tasks show` and the tools. */
export function taskDetail(task: Task, tasks: readonly Task[]): string {
  const lines = [
    taskLine(task, tasks),
    `created by ${task.created_by} at ${formatSecondsUtc(task.created_at)}, updated ${formatSecondsUtc(task.updated_at)}`,
  ]
  if (task.description !== '') lines.push('', task.description)
  if (task.result !== null) lines.push('', `Result: ${task.result}`)
  if (task.links.length > 0)
    lines.push(
      '',
      `Links: ${task.links.map((link) => (link.kind === 'message' ? `message ${link.id}` : `${link.agent} turn ${link.seq}`)).join(', ')}`,
    )
  if (task.notes.length > 0) {
    lines.push('', 'Notes:')
    for (const note of task.notes)
      lines.push(`  ${formatSecondsUtc(note.at)} ${note.by}: ${note.text}`)
  }
  return lines.join('\n')
}
