import { openBlockers, type Task, type TaskStatus } from '../../shared/tasks'

/** The board's columns, in the order work moves through them. */
export const COLUMNS: readonly { status: TaskStatus; title: string }[] = [
  { status: 'pending', title: 'Pending' },
  { status: 'in_progress', title: 'In progress' },
  { status: 'review', title: 'Review' },
  { status: 'done', title: 'Done' },
  { status: 'cancelled', title: 'Cancelled' },
]

export const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  pending: 'Pending',
  in_progress: 'In progress',
  review: 'Review',
  done: 'Done',
  cancelled: 'Cancelled',
}

/** The tasks of one column, in id order. */
export function tasksIn(status: TaskStatus, tasks: readonly Task[]): Task[] {
  return tasks.filter((task) => task.status === status)
}

/** "just now", "5 min", "3 h", "2 d": how long ago a task was made (`created_at`, seconds). */
export function formatAge(seconds: number, nowMillis: number): string {
  const elapsed = Math.max(0, nowMillis / 1000 - seconds)
  if (!Number.isFinite(elapsed)) return '—'
  if (elapsed < 60) return 'just now'
  if (elapsed < 3600) return `${Math.floor(elapsed / 60)} min`
  if (elapsed < 86_400) return `${Math.floor(elapsed / 3600)} h`
  return `${Math.floor(elapsed / 86_400)} d`
}

/** The task an agent works on now: in progress first, else in review. */
export function currentTaskOf(name: string, tasks: readonly Task[]): Task | undefined {
  return (
    tasks.find((task) => task.owner === name && task.status === 'in_progress') ??
    tasks.find((task) => task.owner === name && task.status === 'review')
  )
}

/** Its dependencies in words: "after #1, #2 (waiting on #2)". */
export function describeDependencies(task: Task, tasks: readonly Task[]): string | null {
  if (task.blocked_by.length === 0) return null
  const list = task.blocked_by.map((id) => `#${id}`).join(', ')
  const open = task.status === 'pending' ? openBlockers(task, tasks) : []
  return open.length === 0
    ? `after ${list}`
    : `after ${list} (waiting on ${open.map((id) => `#${id}`).join(', ')})`
}

/** "1, 2" from the form's field into ids; the ids that are not whole numbers come back apart. */
export function parseIds(text: string): { ids: string[]; bad: string[] } {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.replace(/^#/, ''))
    .filter((part) => part !== '')
  return {
    ids: parts.filter((part) => /^[1-9][0-9]{0,8}$/.test(part)),
    bad: parts.filter((part) => !/^[1-9][0-9]{0,8}$/.test(part)),
  }
}
