import type { Task } from '../../shared/tasks'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { initial } from '../ui/format'
import { useCommand } from '../ui/useCommand'
import { InlineError } from '../ui/Dialog'
import { STATUS_LABELS, describeDependencies, formatAge } from './board-model'

/** One task on the board: subject, owner, status, dependencies, age, and an assign menu. */
export function TaskCard({
  task,
  tasks,
  now,
  onOpen,
}: {
  readonly task: Task
  readonly tasks: readonly Task[]
  readonly now: number
  readonly onOpen: (id: string) => void
}) {
  const owner = useAppStore((state) =>
    task.owner === null ? undefined : own(state.agents, task.owner),
  )
  const dependencies = describeDependencies(task, tasks)
  return (
    <li className={`task-card task-${task.status}`} data-testid={`task-card-${task.id}`}>
      <button
        type="button"
        className="task-card-open"
        onClick={() => onOpen(task.id)}
        title="Open the task"
      >
        <span className="task-card-id">#{task.id}</span>
        <span className="task-card-subject">{task.subject}</span>
      </button>
      <div className="task-card-meta">
        {task.owner === null ? (
          <span className="task-owner muted">unassigned</span>
        ) : (
          <span
            className="task-owner"
            title={owner ? `${task.owner}: ${owner.status}` : task.owner}
          >
            <span
              className={`avatar avatar-small avatar-${owner?.status ?? 'idle'}`}
              aria-hidden="true"
            >
              {initial(task.owner)}
            </span>
            {task.owner}
          </span>
        )}
        <span className="task-status">{STATUS_LABELS[task.status]}</span>
        <span className="task-age muted" title="Created">
          {formatAge(task.created_at, now)}
        </span>
      </div>
      {dependencies === null ? null : <p className="task-deps muted small">{dependencies}</p>}
      <AssignMenu task={task} />
    </li>
  )
}

/** Assigns the task to an agent (or nobody); the teammate hears of it in its inbox. */
function AssignMenu({ task }: { readonly task: Task }) {
  const order = useAppStore((state) => state.order)
  const updateTask = useAppStore((state) => state.updateTask)
  const command = useCommand(updateTask)
  if (task.status === 'done' || task.status === 'cancelled') return null
  return (
    <div className="task-assign">
      <select
        aria-label={`Assign task ${task.id}`}
        value={task.owner ?? ''}
        disabled={command.pending}
        onChange={(event) => void command.run({ id: task.id, owner: event.target.value || null })}
      >
        <option value="">Unassigned</option>
        {order.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
        {task.owner !== null && !order.includes(task.owner) ? (
          <option value={task.owner}>{task.owner}</option>
        ) : null}
      </select>
      <InlineError error={command.error} />
    </div>
  )
}
