import { own } from '../../shared/own'
import type { UndoTarget } from '../../shared/undo'
import { useAppStore } from '../store/context'
import { hasTaskCheckpoint } from './undo-plan'
import { undoAvailability, useCheckpoints } from './useCheckpoints'

/**
 * The Changes view's undo: "Undo last turn" always, "Undo task…" when the view shows a task.
 * Each opens the undo dialog, which shows the plan before anything changes; both are off, with
 * the reason in their title, for an agent without checkpoints.
 */
export function ChangesUndoButtons({
  name,
  task,
}: {
  readonly name: string
  /** The task the view is scoped to, if any. */
  readonly task: string | null
}) {
  const openDialog = useAppStore((state) => state.openDialog)
  const status = useAppStore((state) => own(state.agents, name)?.status)
  const checkpoints = useCheckpoints(name)
  const available = undoAvailability(name, checkpoints, status)
  const open = (target: UndoTarget): void => openDialog({ kind: 'undo', name, target })
  const taskReason =
    task === null || !available.enabled
      ? available.reason
      : checkpoints.status === 'ready' && !hasTaskCheckpoint(checkpoints.checkpoints, task)
        ? `No checkpoint was taken while ${name} worked on task #${task}.`
        : null
  return (
    <div className="undo-buttons" role="group" aria-label="Undo">
      <button
        type="button"
        className="button button-small"
        disabled={!available.enabled}
        title={available.reason ?? `Shows what undoing ${name}'s last turn would change first`}
        onClick={() => open({ by: 'turns', turns: 1 })}
      >
        Undo last turn
      </button>
      {task === null ? null : (
        <button
          type="button"
          className="button button-small"
          disabled={taskReason !== null}
          title={
            taskReason ??
            `Shows what undoing everything ${name} did for task #${task} would change first`
          }
          onClick={() => open({ by: 'task', task })}
        >
          Undo task #{task}…
        </button>
      )}
    </div>
  )
}

/** A task's detail: "Undo this task's changes", for its owner (closes the detail first). */
export function TaskUndoButton({
  owner,
  task,
  onClose,
}: {
  readonly owner: string
  readonly task: string
  readonly onClose: () => void
}) {
  const openDialog = useAppStore((state) => state.openDialog)
  const status = useAppStore((state) => own(state.agents, owner)?.status)
  const checkpoints = useCheckpoints(owner)
  const available = undoAvailability(owner, checkpoints, status)
  const reason =
    available.reason ??
    (checkpoints.status === 'ready' && !hasTaskCheckpoint(checkpoints.checkpoints, task)
      ? `No checkpoint was taken while ${owner} worked on this task.`
      : null)
  return (
    <button
      type="button"
      className="button"
      disabled={reason !== null}
      title={
        reason ?? `Shows what undoing everything ${owner} did for this task would change first`
      }
      onClick={() => {
        onClose()
        openDialog({ kind: 'undo', name: owner, target: { by: 'task', task } })
      }}
    >
      Undo this task&rsquo;s changes
    </button>
  )
}
