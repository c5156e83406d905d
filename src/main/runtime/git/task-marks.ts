import type { Task } from '../../../shared/tasks'
import { runGit } from './git'

/**
 * Where a task's work begins and ends on its owner's branch: git refs
 * `refs/agent-teams/task/<owner>/<id>/start` (taken when it goes in progress) and `…/end`
 * (taken when it goes to review or done). Refs, not a file under `.team/`, so the CLI in
 * another process reads the same marks, and git keeps the commits they point at.
 */
export function taskRef(owner: string, id: string, edge: 'start' | 'end'): string {
  return `refs/agent-teams/task/${owner}/${id}/${edge}`
}

export interface TaskMarkTarget {
  readonly workspace: string
  /** Whether `owner` has a worktree whose state can be marked now. */
  readonly hasWorktree: (owner: string) => boolean
  /** A commit of everything in `owner`'s worktree now. */
  readonly snapshot: (owner: string) => string
}

/**
 * Follows the board (each `tasks-changed`) and marks a task's edges when its status moves:
 * into `in_progress` marks the start (kept when a rejected task goes back to work) and drops a
 * stale end; into `review` or `done` marks the end. Tasks first seen mid-way are not marked: their
 * task diff falls back to the whole branch rather than guessing a start.
 */
export class TaskMarks {
  private readonly seen = new Map<string, string>()

  constructor(private readonly target: TaskMarkTarget) {}

  boardChanged(tasks: readonly Task[]): void {
    for (const task of tasks) {
      const before = this.seen.get(task.id)
      this.seen.set(task.id, `${task.status}:${task.owner ?? ''}`)
      if (before === undefined || before === this.seen.get(task.id)) continue
      const owner = task.owner
      if (owner === null || !this.target.hasWorktree(owner)) continue
      if (task.status === 'in_progress') {
        if (!this.exists(taskRef(owner, task.id, 'start'))) this.mark(owner, task.id, 'start')
        runGit(this.target.workspace, ['update-ref', '-d', taskRef(owner, task.id, 'end')])
      } else if (task.status === 'review' || task.status === 'done') {
        if (!before.startsWith('review:') || !this.exists(taskRef(owner, task.id, 'end')))
          this.mark(owner, task.id, 'end')
      }
    }
  }

  private mark(owner: string, id: string, edge: 'start' | 'end'): void {
    // A failed mark (a worktree removed meanwhile) only makes the task diff wider.
    runGit(this.target.workspace, [
      'update-ref',
      taskRef(owner, id, edge),
      this.target.snapshot(owner),
    ])
  }

  private exists(ref: string): boolean {
    return runGit(this.target.workspace, ['rev-parse', '--verify', '--quiet', ref]).status === 0
  }
}
