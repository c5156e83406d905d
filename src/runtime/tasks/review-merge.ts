import type { Disposable } from '../../shared/disposable'
import { USER } from '../../shared/names'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { TeamTasks } from './team-tasks'

/**
 * A teammate's branch merged is its work landed: its tasks waiting in `review` are done. Told by
 * the worktrees after every merge the running team makes (the window's Accept, the CLI through
 * the control channel's team).
 */
export function completeReviewedOnMerge(worktrees: TeamWorktrees, tasks: TeamTasks): Disposable {
  return worktrees.onMerged((name, result) => {
    for (const task of tasks.view().tasks) {
      if (task.owner !== name || task.status !== 'review') continue
      tasks.update(
        task.id,
        {
          status: 'done',
          note: `${result.squash ? 'squashed' : 'merged'} into ${result.into} (${result.commit.slice(0, 8)})`,
        },
        USER,
      )
    }
  })
}
