import type { Params, Result } from '../shared/contract'
import { USER } from '../shared/names'
import type { Task } from '../shared/tasks'
import type { TeamHost } from '../runtime/host/host'

type TaskCommand = 'listTasks' | 'createTask' | 'updateTask'
type TaskHandlers = { [N in TaskCommand]: (params: Params<N>) => Promise<Result<N>> }

/**
 * The person's task commands (the Board view): every change is made as `user`, with the lead's
 * rights. A task assigned to a teammate is announced in its inbox, which wakes it to claim it.
 */
export function taskHandlers(host: () => TeamHost): TaskHandlers {
  return {
    listTasks: async () => host().tasks.view(),
    createTask: async ({ subject, description, blockedBy, owner }) => {
      const task = host().tasks.create({ subject, description, blockedBy, owner, by: USER })
      if (task.owner !== null) announceAssignment(host(), task)
      return task
    },
    updateTask: async ({ id, blockedBy, ...change }) => {
      const before = host()
        .tasks.view()
        .tasks.find((task) => task.id === id)
      const task = host().tasks.update(id, { ...change, blockedBy }, USER)
      if (task.owner !== null && task.owner !== before?.owner && task.status === 'pending')
        announceAssignment(host(), task)
      return task
    },
  }
}

function announceAssignment(host: TeamHost, task: Task): void {
  if (task.owner === null) return
  const message = host.send({
    to: task.owner,
    content: `You were assigned task #${task.id}: ${task.subject}. Claim it with claim_task when you start.`,
  })
  host.tasks.link(task.id, USER, {
    kind: 'message',
    id: message.id,
    summary: `user → ${task.owner}: ${message.content}`.slice(0, 500),
  })
}
