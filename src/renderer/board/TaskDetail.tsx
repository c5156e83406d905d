import type { Task, TaskLink } from '../../shared/tasks'
import { formatSecondsUtc } from '../../shared/time'
import { LEAD } from '../../shared/names'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { Dialog } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { TaskUndoButton } from '../undo/UndoButtons'
import { STATUS_LABELS, describeDependencies } from './board-model'

/** A task in full: its description, result, linked messages and turns, and its history. */
export function TaskDetail({
  task,
  tasks,
  onEdit,
  onClose,
}: {
  readonly task: Task
  readonly tasks: readonly Task[]
  readonly onEdit: () => void
  readonly onClose: () => void
}) {
  const dependencies = describeDependencies(task, tasks)
  const openTaskChanges = useAppStore((state) => state.openTaskChanges)
  // Only a teammate of this team has a branch whose changes can be shown.
  const owner = useAppStore((state) =>
    task.owner !== null && task.owner !== LEAD && own(state.agents, task.owner) !== undefined
      ? task.owner
      : null,
  )
  // Any agent of the team (the lead too, in the workspace) may have checkpoints to undo.
  const undoOwner = useAppStore((state) =>
    task.owner !== null && own(state.agents, task.owner) !== undefined ? task.owner : null,
  )
  return (
    <Dialog title={`#${task.id} ${task.subject}`} onClose={onClose} wide>
      <div className="dialog-body task-detail" data-testid="task-detail">
        <p className="task-detail-line">
          <span className="task-status">{STATUS_LABELS[task.status]}</span>
          <span>{task.owner === null ? 'unassigned' : `owner: ${task.owner}`}</span>
          <span className="muted">
            created by {task.created_by}, {formatSecondsUtc(task.created_at)}
          </span>
        </p>
        {dependencies === null ? null : <p className="muted">{dependencies}</p>}
        {task.description === '' ? null : <p className="task-detail-text">{task.description}</p>}
        {task.result === null ? null : (
          <section>
            <h3>Result</h3>
            <p className="task-detail-text">{task.result}</p>
          </section>
        )}
        <section>
          <h3>Linked messages and turns</h3>
          {task.links.length === 0 ? (
            <p className="muted small">Nothing linked yet.</p>
          ) : (
            <ul className="task-links">
              {task.links.map((link) => (
                <LinkItem key={linkKey(link)} link={link} onClose={onClose} />
              ))}
            </ul>
          )}
        </section>
        {task.notes.length === 0 ? null : (
          <section>
            <h3>History</h3>
            <ul className="task-notes">
              {task.notes.map((note, index) => (
                <li key={index} className="small">
                  <span className="muted">{formatSecondsUtc(note.at)}</span> {note.by}: {note.text}
                </li>
              ))}
            </ul>
          </section>
        )}
        <DialogFooter
          cancel={{ label: 'Close', onClick: onClose }}
          action={{ label: 'Edit', onClick: onEdit }}
        >
          {undoOwner === null ? null : (
            <TaskUndoButton owner={undoOwner} task={task.id} onClose={onClose} />
          )}
          {owner === null ? null : (
            <button
              type="button"
              className="button"
              title={`What ${owner} changed for this task, in its worktree`}
              onClick={() => {
                onClose()
                openTaskChanges(owner, task.id)
              }}
            >
              Changes
            </button>
          )}
        </DialogFooter>
      </div>
    </Dialog>
  )
}

function linkKey(link: TaskLink): string {
  return link.kind === 'message' ? `m:${link.id}` : `t:${link.agent}:${link.seq}`
}

/** A message (what it said, when the runtime knew it) or a turn (opens that transcript). */
function LinkItem({ link, onClose }: { readonly link: TaskLink; readonly onClose: () => void }) {
  const select = useAppStore((state) => state.select)
  const preview = useAppStore((state) =>
    link.kind === 'turn'
      ? turnPreview(own(state.transcripts, link.agent)?.records, link.seq)
      : null,
  )
  if (link.kind === 'message')
    return (
      <li className="task-link">
        <span className="task-link-kind">message</span> {link.summary ?? link.id}
      </li>
    )
  return (
    <li className="task-link">
      <span className="task-link-kind">turn</span>{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          onClose()
          select(link.agent, 'conversation')
        }}
      >
        {link.agent}, turn {link.seq}
      </button>
      {preview === null ? null : <span className="muted small"> — {preview}</span>}
    </li>
  )
}

/** The text and tool calls of a loaded transcript's record `seq`, in a line. */
function turnPreview(
  records: readonly { seq: number; kind: string; content?: unknown }[] | undefined,
  seq: number,
): string | null {
  const record = records?.find((candidate) => candidate.seq === seq)
  if (record === undefined || !Array.isArray(record.content)) return null
  const parts = (record.content as { type: string; text?: string; name?: string }[]).map((block) =>
    block.type === 'text'
      ? (block.text ?? '')
      : block.type === 'tool_use'
        ? `${block.name ?? 'tool'}()`
        : '',
  )
  const text = parts.filter((part) => part !== '').join(' ')
  return text === '' ? null : text.slice(0, 160)
}
