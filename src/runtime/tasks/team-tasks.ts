import { LEAD, USER } from '../../shared/names'
import { taskStatuses, type Task, type TaskBoardView, type TaskLink } from '../../shared/tasks'
import { assertKnownAgent } from '../host/known-agent'
import type { TaskOperations, TaskToolChange } from '../tools/task-tools'
import type { ClaimOutcome, NewTask, TaskBoard, TaskChange } from './task-board'
import type { TaskFeed } from './task-feed'
import { boardText, taskLine } from './task-text'
import { TeamError } from '../../shared/errors'

/** What the team's board needs from the team. */
export interface TasksOfTeam {
  readonly tasks: TaskBoard
  readonly taskFeed: TaskFeed
  readonly roster: { find(name: string): unknown }
}

/**
 * The board as the running team uses it: every change checked (owners are agents of the team),
 * reported at once as `tasks-changed`, and offered to the agents as tools.
 */
export class TeamTasks {
  constructor(private readonly team: TasksOfTeam) {}

  view(): TaskBoardView {
    return this.team.tasks.list()
  }

  create(request: NewTask): Task {
    if (request.owner != null) assertKnownAgent(request.owner, this.team.roster)
    return this.changed(this.team.tasks.create(request))
  }

  /** The lead's and the person's change (any field), or a teammate's of its own task. */
  update(id: string, change: TaskChange, by: string): Task {
    if (change.owner != null) assertKnownAgent(change.owner, this.team.roster)
    const onlyOwner = by !== LEAD && by !== USER
    return this.changed(this.team.tasks.update(id, change, by, onlyOwner))
  }

  claim(id: string, agent: string, turn?: number): ClaimOutcome {
    const outcome = this.team.tasks.claim(id, agent)
    if (outcome.ok && turn !== undefined) this.link(id, agent, { kind: 'turn', agent, seq: turn })
    this.team.taskFeed.refresh()
    return outcome
  }

  complete(id: string, agent: string, result: string | null): { task: Task; unblocked: Task[] } {
    const completed = this.team.tasks.complete(id, agent, result)
    this.team.taskFeed.refresh()
    return completed
  }

  /** Puts the in-progress tasks of the owners picked back to pending, with the reason. */
  release(shouldRelease: (owner: string) => boolean, reason: (owner: string) => string): Task[] {
    const released = this.team.tasks.release(shouldRelease, reason)
    if (released.length > 0) this.team.taskFeed.refresh()
    return released
  }

  /** Adds a link (a message, a turn) to a task, as `by`. */
  link(id: string, by: string, link: TaskLink): void {
    this.team.tasks.update(id, { addLinks: [link] }, by)
    this.team.taskFeed.refresh()
  }

  /** The task tools' side: each answers in words the model reads. */
  toolOperations(): TaskOperations {
    const turnLink = (agent: string, turn: number | undefined): TaskLink[] =>
      turn === undefined ? [] : [{ kind: 'turn', agent, seq: turn }]
    return {
      list: () => boardText(this.view()),
      create: (by, input, turn) => {
        const task = this.create({
          subject: input.subject,
          description: input.description,
          blockedBy: input.blocked_by,
          owner: input.owner ?? null,
          by,
          links: turnLink(by, turn),
        })
        return `Created ${taskLine(task, this.view().tasks)}`
      },
      update: (by, id, change, turn) => {
        const task = this.update(id, toChange(change, turnLink(by, turn)), by)
        return `Updated ${taskLine(task, this.view().tasks)}`
      },
      claim: (by, id, turn) => {
        const outcome = this.claim(id, by, turn)
        if (!outcome.ok) throw new TeamError('claim-refused', outcome.message)
        const task = outcome.task
        return [
          `You hold task #${task.id} now: ${task.subject}`,
          ...(task.description === '' ? [] : [task.description]),
          'Complete it with complete_task when it is done.',
        ].join('\n')
      },
      complete: (by, id, result, turn) => {
        const { task, unblocked } = this.complete(id, by, result)
        if (turn !== undefined) this.link(id, by, { kind: 'turn', agent: by, seq: turn })
        const all = taskStatuses(this.view().tasks)
        return [
          `Done: ${taskLine(task, all)}`,
          ...(unblocked.length > 0
            ? [`Unblocked: ${unblocked.map((each) => taskLine(each, all)).join('; ')}`]
            : []),
        ].join('\n')
      },
    }
  }

  private changed(task: Task): Task {
    this.team.taskFeed.refresh()
    return task
  }
}

function toChange(change: TaskToolChange, links: TaskLink[]): TaskChange {
  return {
    subject: change.subject,
    description: change.description,
    status: change.status,
    owner: change.owner,
    blockedBy: change.blocked_by,
    note: change.note,
    addLinks: [
      ...links,
      ...(change.link_message === undefined
        ? []
        : [{ kind: 'message' as const, id: change.link_message }]),
    ],
  }
}
