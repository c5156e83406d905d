import { useId } from 'react'
import type { Task } from '../../shared/tasks'

/** What the Changes view shows: the whole branch, the last turn, or one of the teammate's tasks. */
export type ChangesScope =
  | { readonly kind: 'branch' }
  | { readonly kind: 'turn' }
  | { readonly kind: 'task'; readonly task: string }

/**
 * The scope picker: whole branch, last turn, or a task of this teammate's (from the board),
 * the task chosen in a list beside it. "Task" starts on the task it works on now, else its
 * latest one.
 */
export function ChangesScopePicker({
  scope,
  tasks,
  onPick,
}: {
  readonly scope: ChangesScope
  /** The teammate's own tasks (it owns them, or they are assigned to it). */
  readonly tasks: readonly Task[]
  readonly onPick: (scope: ChangesScope) => void
}) {
  const listId = useId()
  const chosen = scope.kind === 'task' ? scope.task : null
  // A task asked for by id that the board does not list (yet) still shows as chosen.
  const listed = chosen === null || tasks.some((task) => task.id === chosen)
  return (
    <>
      <div className="segmented" role="group" aria-label="Scope">
        <button
          type="button"
          aria-pressed={scope.kind === 'branch'}
          onClick={() => onPick({ kind: 'branch' })}
        >
          Whole branch
        </button>
        <button
          type="button"
          aria-pressed={scope.kind === 'turn'}
          onClick={() => onPick({ kind: 'turn' })}
        >
          Last turn
        </button>
        <button
          type="button"
          aria-pressed={scope.kind === 'task'}
          disabled={tasks.length === 0 && scope.kind !== 'task'}
          title={tasks.length === 0 ? 'No task on the board belongs to this teammate' : undefined}
          onClick={() => {
            const task = currentTask(tasks)
            if (task !== null) onPick({ kind: 'task', task: task.id })
          }}
        >
          Task
        </button>
      </div>
      {scope.kind === 'task' ? (
        <label className="changes-task-pick" htmlFor={listId}>
          <span className="visually-hidden">Which task</span>
          <select
            id={listId}
            value={scope.task}
            onChange={(event) => onPick({ kind: 'task', task: event.target.value })}
          >
            {listed ? null : <option value={scope.task}>#{scope.task}</option>}
            {tasks.map((task) => (
              <option key={task.id} value={task.id}>
                #{task.id} {task.subject} ({task.status.replace('_', ' ')})
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </>
  )
}

/** The scope as the contract's getReviewDiff takes it. */
export function scopeParams(
  scope: ChangesScope,
): { scope: 'branch' | 'turn' } | { scope: 'task'; task: string } {
  return scope.kind === 'task' ? { scope: 'task', task: scope.task } : { scope: scope.kind }
}

/** The task in progress, else the one touched last. */
function currentTask(tasks: readonly Task[]): Task | null {
  const working = tasks.find((task) => task.status === 'in_progress')
  if (working !== undefined) return working
  return tasks.reduce<Task | null>(
    (latest, task) => (latest === null || task.updated_at > latest.updated_at ? task : latest),
    null,
  )
}
