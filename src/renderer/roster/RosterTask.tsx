import { useAppStore } from '../store/context'
import { currentTaskOf } from '../board/board-model'

/** The roster's line for an agent's current task; opens the board. */
export function RosterTask({ name }: { readonly name: string }) {
  const task = useAppStore((state) => currentTaskOf(name, state.tasks.tasks))
  const showView = useAppStore((state) => state.showView)
  if (task === undefined) return null
  return (
    <button
      type="button"
      className="roster-task"
      data-testid={`roster-task-${name}`}
      title={`${name} is on task #${task.id} (${task.status === 'review' ? 'in review' : 'in progress'}); open the board`}
      onClick={() => showView('board')}
    >
      <span className="roster-task-id">#{task.id}</span> {task.subject}
    </button>
  )
}
