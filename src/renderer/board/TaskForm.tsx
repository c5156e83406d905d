import { useId, useState, type FormEvent } from 'react'
import { TASK_STATUSES, type Task, type TaskStatus } from '../../shared/tasks'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
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
        <Field
          id={ids.subject}
          label="Subject"
          error={submitted && subjectMissing ? 'Give the task a subject.' : null}
        >
          <input
            id={ids.subject}
            value={subject}
            data-autofocus
            aria-invalid={submitted && subjectMissing}
            onChange={(event) => setSubject(event.target.value)}
          />
        </Field>
        <Field id={ids.description} label="Description">
          <textarea
            id={ids.description}
            rows={4}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <Field
          id={ids.blockedBy}
          label="Blocked by"
          hint="Ids of the tasks that must be done first."
          error={
            dependencies.bad.length > 0 ? (
              <>
                {dependencies.bad.map((bad) => `"${bad}"`).join(', ')}: task ids are whole numbers,
                such as 3.
              </>
            ) : null
          }
        >
          <input
            id={ids.blockedBy}
            value={blockedBy}
            placeholder="1, 2"
            aria-invalid={dependencies.bad.length > 0}
            onChange={(event) => setBlockedBy(event.target.value)}
          />
        </Field>
        <Field id={ids.owner} label="Owner">
          <select id={ids.owner} value={owner} onChange={(event) => setOwner(event.target.value)}>
            <option value="">Unassigned</option>
            {order.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        {task === null ? null : (
          <Field id={ids.status} label="Status">
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
          </Field>
        )}
        <InlineError error={command.error} />
        <DialogFooter
          cancel={{ label: 'Cancel', onClick: onClose }}
          action={{ label: task === null ? 'Create task' : 'Save', pending: command.pending }}
        />
      </form>
    </Dialog>
  )
}
