import { TeamError } from '../../shared/errors'
import type { Task } from '../../shared/tasks'

/**
 * Where a task's work begins and ends on its owner's branch: git refs
 * `refs/agent-teams/task/<owner>/<id>/start` (taken when it goes in progress) and `…/end`
 * (taken when it goes to review or done). Refs, not a file under `.team/`, so the CLI in
 * another process reads the same marks, and git keeps the commits they point at. They are the
 * app's own refs: set through the ledger, and not used once anyone else moved them.
 */
export function taskRef(owner: string, id: string, edge: 'start' | 'end'): string {
  return `refs/agent-teams/task/${owner}/${id}/${edge}`
}

export interface TaskMarkTarget {
  /** Whether `owner` has a worktree whose state can be marked now. */
  readonly hasWorktree: (owner: string) => boolean
  /** A commit of everything in `owner`'s worktree now. */
  readonly snapshot: (owner: string) => Promise<string>
  readonly setRef: (ref: string, commit: string) => Promise<void>
  readonly deleteRef: (ref: string) => Promise<void>
  /** The app's own ref, or null when missing or moved by someone else. */
  readonly appRef: (ref: string) => Promise<{ commit: string | null }>
  /**
   * Runs `work` after the git work already queued for `owner`; its next tool call waits for it,
   * so a mark is taken before the owner changes anything more.
   */
  readonly queue: (owner: string, work: () => Promise<void>) => void
}

/**
 * Follows the board (each `tasks-changed`) and marks a task's edges when its status moves:
 * into `in_progress` marks the start (kept when a rejected task goes back to work) and drops a
 * stale end; into `review` or `done` marks the end. The board as it stood when the team opened is
 * `seed`ed, so a task claimed before a restart still gets its end. A task first seen mid-way is
 * not marked: its task diff falls back to the whole branch (and says so) rather than guess.
 */
export class TaskMarks {
  private readonly seen = new Map<string, string>()

  constructor(private readonly target: TaskMarkTarget) {}

  /** The board as it stands when the team opens: the statuses later changes are compared with. */
  seed(tasks: readonly Task[]): void {
    for (const task of tasks) this.seen.set(task.id, `${task.status}:${task.owner ?? ''}`)
  }

  boardChanged(tasks: readonly Task[]): void {
    for (const task of tasks) {
      const before = this.seen.get(task.id)
      this.seen.set(task.id, `${task.status}:${task.owner ?? ''}`)
      if (before === undefined || before === this.seen.get(task.id)) continue
      const owner = task.owner
      if (owner === null || !this.target.hasWorktree(owner)) continue
      const id = task.id
      if (task.status === 'in_progress')
        this.target.queue(owner, async () => {
          const start = await this.target.appRef(taskRef(owner, id, 'start'))
          if (start.commit === null) await this.mark(owner, id, 'start')
          await this.target.deleteRef(taskRef(owner, id, 'end'))
        })
      else if (task.status === 'review' || task.status === 'done')
        this.target.queue(owner, async () => {
          const end = await this.target.appRef(taskRef(owner, id, 'end'))
          if (!before.startsWith('review:') || end.commit === null)
            await this.mark(owner, id, 'end')
        })
    }
  }

  private async mark(owner: string, id: string, edge: 'start' | 'end'): Promise<void> {
    // Marks follow a change already on the board, inside the claim or completion that made it:
    // a snapshot git refuses (a worktree removed meanwhile, a file it cannot read) must not fail
    // that call. Without the mark the task diff is the whole branch, and says so.
    try {
      await this.target.setRef(taskRef(owner, id, edge), await this.target.snapshot(owner))
    } catch (error) {
      const fileSystem = typeof (error as NodeJS.ErrnoException).code === 'string'
      if (!(error instanceof TeamError) && !fileSystem) throw error
    }
  }
}
