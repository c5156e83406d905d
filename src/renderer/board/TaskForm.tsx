import { useId, useState, type FormEvent } from 'react'
import { TASK_STATUSES, type Task, type TaskStatus } from '../../shared/tasks'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'
import { STATUS_LABELS, parseIds } from './board-model'

/** Creates a task (`task` null) or edits one: subject, description, dependencies, owner, status. */
export function TaskForm({
  task,
  onClose,
}: {
  readonly task: Task | null
  readonly onClose: () => void
}) {
  const order = useAppStore((state) => state.order)
  const createTask = useAppStore((state) => state.createTask)
  const updateTask = useAppStore((state) => state.updateTask)
  const create = useCommand(createTask)
  const update = useCommand(updateTask)
  const [subject, setSubject] = useState(task?.subject ?? '')
  const [description, setDescription] = useState(task?.description ?? '')
  const [blockedBy, setBlockedBy] = useState(task?.blocked_by.join(', ') ?? '')
  const [owner, setOwner] = useState(task?.owner ?? '')
  const [status, setStatus] = useState<TaskStatus>(task?.status ?? 'pending')
  const [submitted, setSubmitted] = useState(false)
  const ids = {
    subject: useId(),
    description: useId(),
    blockedBy: useId(),
    owner: useId(),
    status: useId(),
  }
  const dependencies = parseIds(blockedBy)
  const subjectMissing = subject.trim() === ''
  const command = task === null ? create : update

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault()
    setSubmitted(true)
    if (subjectMissing || dependencies.bad.length > 0 || command.pending) return
    const fields = {
      subject: subject.trim(),
      description,
      blockedBy: dependencies.ids,
      owner: owner === '' ? null : owner,
    }
    const outcome =
      task === null
        ? await create.run(fields)
        : await update.run({
            id: task.id,
            ...fields,
            ...(status !== task.status ? { status } : {}),
          })
    if (outcome.ok) onClose()
  }

  return (
    <Dialog title={task === null ? 'New task' : `Edit task #${task.id}`} onClose={onClose}>
      <form className="dialog-body" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label htmlFor={ids.subject}>Subject</label>
          <input
            id={ids.subject}
            value={subject}
            data-autofocus
            aria-invalid={submitted && subjectMissing}
            onChange={(event) => setSubject(event.target.value)}
          />
          {submitted && subjectMissing ? (
            <p className="field-error">Give the task a subject.</p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={ids.description}>Description</label>
          <textarea
            id={ids.description}
            rows={4}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.blockedBy}>Blocked by</label>
          <input
            id={ids.blockedBy}
            value={blockedBy}
            placeholder="1, 2"
            aria-invalid={dependencies.bad.length > 0}
            onChange={(event) => setBlockedBy(event.target.value)}
          />
          {dependencies.bad.length > 0 ? (
            <p className="field-error">
              {dependencies.bad.map((bad) => `"${bad}"`).join(', ')}: task ids are whole numbers,
              such as 3.
            </p>
          ) : (
            <p className="field-hint">Ids of the tasks that must be done first.</p>
          )}
        </div>
        <div className="field">
          <label htmlFor={ids.owner}>Owner</label>
          <select id={ids.owner} value={owner} onChange={(event) => setOwner(event.target.value)}>
            <option value="">Unassigned</option>
            {order.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {task === null ? null : (
          <div className="field">
            <label htmlFor={ids.status}>Status</label>
            <select
              id={ids.status}
              value={status}
              onChange={(event) => setStatus(event.target.value as TaskStatus)}
            >
              {TASK_STATUSES.map((each) => (
                <option key={each} value={each}>
                  {STATUS_LABELS[each]}
                </option>
              ))}
            </select>
          </div>
        )}
        <InlineError error={command.error} />
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={command.pending}>
            {task === null ? 'Create task' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
