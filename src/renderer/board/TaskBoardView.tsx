import { useState } from 'react'
import { useAppStore } from '../store/context'
import { COLUMNS, tasksIn } from './board-model'
import { TaskCard } from './TaskCard'
import { TaskDetail } from './TaskDetail'
import { TaskForm } from './TaskForm'
import { useTimelineFocus } from '../timeline/useTimelineFocus'

type Open = { readonly kind: 'new' } | { readonly kind: 'edit' | 'detail'; readonly id: string }

/** The task board: a column per status, live from `tasks-changed`; create, edit, assign, open. */
export function TaskBoardView() {
  const board = useAppStore((state) => state.tasks)
  const [open, setOpen] = useState<Open | null>(null)
  useTimelineFocus('task', (id) => setOpen({ kind: 'detail', id }))
  // The cards' ages are read when the board renders (each change renders it again).
  const now = Date.now()
  const opened =
    open !== null && open.kind !== 'new'
      ? board.tasks.find((task) => task.id === open.id)
      : undefined
  return (
    <section className="task-board" aria-label="Task board">
      <div className="task-board-bar">
        <span className="muted small">
          {board.tasks.length === 1 ? '1 task' : `${board.tasks.length} tasks`} · agents claim them
          with claim_task, or assign one from its menu
        </span>
        <button
          type="button"
          className="button button-primary"
          onClick={() => setOpen({ kind: 'new' })}
        >
          + New task
        </button>
      </div>
      {board.problems.length === 0 ? null : (
        <ul className="task-problems" role="alert">
          {board.problems.map((problem) => (
            <li key={problem.file}>{problem.message}</li>
          ))}
        </ul>
      )}
      <div className="task-columns">
        {COLUMNS.map((column) => {
          const tasks = tasksIn(column.status, board.tasks)
          return (
            <div
              key={column.status}
              className="task-column"
              role="region"
              aria-label={column.title}
              data-testid={`task-column-${column.status}`}
            >
              <h2 className="task-column-title">
                {column.title} <span className="muted">{tasks.length}</span>
              </h2>
              <ul className="task-list">
                {tasks.map((task) => (
                  <TaskCard
                    key={task.id}
                    task={task}
                    tasks={board.tasks}
                    now={now}
                    onOpen={(id) => setOpen({ kind: 'detail', id })}
                  />
                ))}
              </ul>
            </div>
          )
        })}
      </div>
      {open?.kind === 'new' ? <TaskForm task={null} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'edit' && opened !== undefined ? (
        <TaskForm task={opened} onClose={() => setOpen({ kind: 'detail', id: opened.id })} />
      ) : null}
      {open?.kind === 'detail' && opened !== undefined ? (
        <TaskDetail
          task={opened}
          tasks={board.tasks}
          onEdit={() => setOpen({ kind: 'edit', id: opened.id })}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </section>
  )
}
