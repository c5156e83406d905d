import { TeamError } from '../../shared/errors'
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_RESULT_LENGTH,
  MAX_SUBJECT_LENGTH,
  TASKS_FORMAT_VERSION,
  openBlockers,
  type Task,
  type TaskBoardView,
  type TaskLink,
  type TaskStatus,
} from '../../shared/tasks'
import { systemClock, type Clock } from '../system/clock'
import { withBoardLock } from './board-lock'
import { assertDependencies, unblockedBy } from './task-graph'
import {
  ensureTasksDirectory,
  readAllTasks,
  requireTask,
  tasksDirectory,
  writeTaskFile,
} from './task-files'

/** Notes kept per task: the newest; a task released a thousand times stays a small file. */
const MAX_NOTES = 200

export interface NewTask {
  readonly subject: string
  readonly description?: string
  readonly blockedBy?: readonly string[]
  /** Who asks: an agent's name or `user`. */
  readonly by: string
  /** Assigned at once (still pending until it claims it). */
  readonly owner?: string | null
  readonly links?: readonly TaskLink[]
}

export interface TaskChange {
  readonly subject?: string
  readonly description?: string
  readonly status?: TaskStatus
  readonly owner?: string | null
  readonly blockedBy?: readonly string[]
  readonly result?: string | null
  readonly addLinks?: readonly TaskLink[]
  readonly note?: string
}

export type ClaimRefusal = 'missing' | 'damaged' | 'taken' | 'blocked' | 'not-pending' | 'holding'

export type ClaimOutcome =
  | { readonly ok: true; readonly task: Task; readonly message: string }
  | {
      readonly ok: false
      readonly reason: ClaimRefusal
      readonly message: string
      /** Who holds it (taken), or the open blockers' ids (blocked). */
      readonly owner?: string
      readonly blockers?: readonly string[]
    }

/**
 * The task board in `.team/tasks/`, shared by every process that opens the workspace (the
 * runtime, `agent-teams tasks`, other programs). Reads take no lock (each file is replaced
 * atomically); every change reads what it needs and writes under the board's lock, so of any
 * number of claimers of one task, in any processes, exactly one wins.
 */
export class TaskBoard {
  readonly directory: string

  constructor(
    teamRoot: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.directory = tasksDirectory(teamRoot)
  }

  list(): TaskBoardView {
    const { tasks, problems } = readAllTasks(this.directory)
    return { tasks, problems }
  }

  get(id: string): Task {
    return requireTask(this.directory, id)
  }

  create(request: NewTask): Task {
    const subject = checkSubject(request.subject)
    const description = checkText(request.description ?? '', 'description', MAX_DESCRIPTION_LENGTH)
    const blockedBy = unique(request.blockedBy ?? [])
    return this.locked(() => {
      const { tasks, highestId } = readAllTasks(this.directory)
      const id = String(highestId + 1)
      assertDependencies(id, blockedBy, tasks)
      const now = this.now()
      const task: Task = {
        v: TASKS_FORMAT_VERSION,
        id,
        subject,
        description,
        status: 'pending',
        owner: request.owner ?? null,
        blocked_by: blockedBy,
        created_by: request.by,
        created_at: now,
        updated_at: now,
        links: [...(request.links ?? [])],
        result: null,
        notes: [],
      }
      writeTaskFile(this.directory, task)
      return task
    })
  }

  /**
   * Changes a task's fields. `onlyOwner` (a teammate editing its own task) refuses a task owned
   * by anyone else and changes of owner or dependencies.
   */
  update(id: string, change: TaskChange, by: string, onlyOwner = false): Task {
    return this.locked(() => {
      const { tasks } = readAllTasks(this.directory)
      const task = requireTask(this.directory, id)
      if (onlyOwner) {
        if (task.owner !== by)
          throw new TeamError(
            'not-permitted',
            `Task ${id} is not yours (${task.owner === null ? 'nobody holds it' : `${task.owner} holds it`}); you may only update your own task.`,
          )
        if (change.owner !== undefined || change.blockedBy !== undefined)
          throw new TeamError(
            'not-permitted',
            'Only the lead changes owners and dependencies; send it a message instead.',
          )
      }
      const next: Task = { ...task, links: [...task.links], notes: [...task.notes] }
      if (change.subject !== undefined) next.subject = checkSubject(change.subject)
      if (change.description !== undefined)
        next.description = checkText(change.description, 'description', MAX_DESCRIPTION_LENGTH)
      if (change.result !== undefined)
        next.result =
          change.result === null ? null : checkText(change.result, 'result', MAX_RESULT_LENGTH)
      if (change.blockedBy !== undefined) {
        next.blocked_by = unique(change.blockedBy)
        assertDependencies(id, next.blocked_by, tasks)
      }
      if (change.owner !== undefined && change.owner !== task.owner) {
        next.owner = change.owner
        this.note(next, by, change.owner === null ? 'unassigned' : `assigned to ${change.owner}`)
      }
      if (change.status !== undefined && change.status !== task.status) {
        if (change.status === 'in_progress' && next.owner === null)
          throw new TeamError(
            'invalid-transition',
            `Task ${id} needs an owner to be in progress; assign it (or let a teammate claim it).`,
          )
        next.status = change.status
        this.note(next, by, `status ${task.status} → ${change.status}`)
      }
      for (const link of change.addLinks ?? [])
        if (!next.links.some((existing) => sameLink(existing, link))) next.links.push(link)
      if (change.note !== undefined && change.note.trim() !== '')
        this.note(next, by, checkText(change.note, 'note', 10_000))
      return this.save(next)
    })
  }

  /** Takes a pending, unblocked task for `agent`; of concurrent claimers exactly one wins. */
  claim(id: string, agent: string, options: { exclusive?: boolean } = {}): ClaimOutcome {
    return this.locked(() => {
      const { tasks, problems } = readAllTasks(this.directory)
      const task = tasks.find((candidate) => candidate.id === id)
      if (task === undefined) {
        const damaged = problems.find((problem) => problem.file.endsWith(`/${id}.json`))
        return damaged
          ? { ok: false, reason: 'damaged', message: damaged.message }
          : { ok: false, reason: 'missing', message: `There is no task ${id}.` }
      }
      const refusal = claimRefusal(task, agent, tasks, options.exclusive !== false)
      if (refusal !== null) return refusal
      const claimed: Task = { ...task, status: 'in_progress', owner: agent, notes: [...task.notes] }
      this.note(claimed, agent, `claimed by ${agent}`)
      return {
        ok: true,
        task: this.save(claimed),
        message: `${agent} claimed task ${id}: ${task.subject}`,
      }
    })
  }

  /** The owner finishes its task; answers the tasks this unblocked. */
  complete(id: string, agent: string, result: string | null): { task: Task; unblocked: Task[] } {
    return this.locked(() => {
      const { tasks } = readAllTasks(this.directory)
      const task = requireTask(this.directory, id)
      if (task.owner !== agent)
        throw new TeamError(
          'not-permitted',
          `Task ${id} is ${task.owner === null ? 'not claimed' : `held by ${task.owner}`}; only its owner completes it.`,
        )
      if (task.status !== 'in_progress' && task.status !== 'review')
        throw new TeamError(
          'invalid-transition',
          `Task ${id} is ${task.status}; only a task in progress or in review can be completed.`,
        )
      const done: Task = {
        ...task,
        status: 'done',
        result: result === null ? task.result : checkText(result, 'result', MAX_RESULT_LENGTH),
        notes: [...task.notes],
      }
      this.note(done, agent, `completed by ${agent}`)
      return { task: this.save(done), unblocked: unblockedBy(id, tasks) }
    })
  }

  /**
   * Puts back to pending every in-progress task whose owner `shouldRelease` picks (an agent that
   * stopped, crashed or shut down), each with a note saying why. Answers the tasks released.
   */
  release(shouldRelease: (owner: string) => boolean, reason: (owner: string) => string): Task[] {
    if (!readAllTasks(this.directory).tasks.some((task) => isHeldBy(task, shouldRelease))) return []
    return this.locked(() => {
      const released: Task[] = []
      for (const task of readAllTasks(this.directory).tasks) {
        if (!isHeldBy(task, shouldRelease) || task.owner === null) continue
        const back: Task = { ...task, status: 'pending', owner: null, notes: [...task.notes] }
        this.note(back, 'runtime', `released: ${reason(task.owner)}`)
        released.push(this.save(back))
      }
      return released
    })
  }

  private locked<T>(operation: () => T): T {
    ensureTasksDirectory(this.directory)
    return withBoardLock(this.directory, operation)
  }

  private save(task: Task): Task {
    const saved = { ...task, updated_at: this.now(), notes: task.notes.slice(-MAX_NOTES) }
    writeTaskFile(this.directory, saved)
    return saved
  }

  private note(task: Task, by: string, text: string): void {
    task.notes.push({ at: this.now(), by, text, status: task.status, owner: task.owner })
  }

  private now(): number {
    return this.clock.now() / 1000
  }
}

function claimRefusal(
  task: Task,
  agent: string,
  tasks: readonly Task[],
  exclusive: boolean,
): ClaimOutcome | null {
  const { id } = task
  if (task.status === 'in_progress' || task.status === 'review') {
    return task.owner === agent
      ? null
      : {
          ok: false,
          reason: 'taken',
          owner: task.owner ?? undefined,
          message: `Task ${id} is already claimed by ${task.owner ?? 'someone'}.`,
        }
  }
  if (task.status !== 'pending')
    return { ok: false, reason: 'not-pending', message: `Task ${id} is ${task.status}.` }
  if (task.owner !== null && task.owner !== agent)
    return {
      ok: false,
      reason: 'taken',
      owner: task.owner,
      message: `Task ${id} is already claimed by ${task.owner} (assigned).`,
    }
  const blockers = openBlockers(task, tasks)
  if (blockers.length > 0)
    return {
      ok: false,
      reason: 'blocked',
      blockers,
      message: `Task ${id} is blocked by task${blockers.length === 1 ? '' : 's'} ${blockers.join(', ')} (not done yet).`,
    }
  if (exclusive) {
    const held = tasks.find((other) => other.status === 'in_progress' && other.owner === agent)
    if (held !== undefined)
      return {
        ok: false,
        reason: 'holding',
        message: `${agent} already holds task ${held.id} (in progress); complete or release it first.`,
      }
  }
  return null
}

function isHeldBy(task: Task, shouldRelease: (owner: string) => boolean): boolean {
  return task.status === 'in_progress' && task.owner !== null && shouldRelease(task.owner)
}

function checkSubject(subject: string): string {
  const trimmed = subject.trim()
  if (trimmed === '') throw new TeamError('invalid-argument', 'A task needs a subject.')
  return checkText(trimmed, 'subject', MAX_SUBJECT_LENGTH)
}

function checkText(text: string, field: string, max: number): string {
  if (text.length > max)
    throw new TeamError(
      'invalid-argument',
      `The ${field} is ${text.length} characters; at most ${max} fit.`,
    )
  return text
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()))]
}

function sameLink(a: TaskLink, b: TaskLink): boolean {
  return a.kind === 'message' && b.kind === 'message'
    ? a.id === b.id
    : a.kind === 'turn' && b.kind === 'turn' && a.agent === b.agent && a.seq === b.seq
}
