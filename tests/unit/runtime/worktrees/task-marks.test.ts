import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../../src/shared/errors'
import { TASKS_FORMAT_VERSION, type Task } from '../../../../src/shared/tasks'
import { TaskMarks, taskRef } from '../../../../src/runtime/git/task-marks'
import { Worktrees } from '../../../../src/runtime/git/worktrees'
import { gitIn, gitWorkspace } from '../../../helpers/git'
import { tempWorkspace } from '../../../helpers/workspace'

function task(status: Task['status'], owner: string | null = 'alice'): Task {
  return {
    v: TASKS_FORMAT_VERSION,
    id: '1',
    subject: 'Write the parser',
    description: '',
    status,
    owner,
    blocked_by: [],
    created_by: 'lead',
    created_at: 1,
    updated_at: 1,
    links: [],
    result: null,
    notes: [],
  }
}

/**
 * Marks over a real repository whose "snapshot" is HEAD, or a git failure when asked to; the
 * queued git work is run in order and can be awaited (`settled`).
 */
function marksIn(
  workspace: string,
  failing: { now: boolean },
): { marks: TaskMarks; settled: () => Promise<void> } {
  const worktrees = new Worktrees({ workspace, dataFolder: tempWorkspace('agent-teams-data-').dir })
  let queue = Promise.resolve()
  const marks = new TaskMarks({
    hasWorktree: () => true,
    snapshot: async () => {
      if (failing.now) throw new TeamError('io', 'git add -A failed: permission denied')
      return gitIn(workspace, 'rev-parse', 'HEAD')
    },
    setRef: (ref, commit) => worktrees.setRef(ref, commit),
    deleteRef: (ref) => worktrees.deleteRef(ref),
    appRef: (ref) => worktrees.appRef(ref),
    queue: (_owner, work) => {
      queue = queue.then(work)
    },
  })
  return { marks, settled: () => queue }
}

const refExists = (workspace: string, ref: string) => {
  try {
    gitIn(workspace, 'rev-parse', '--verify', '--quiet', ref)
    return true
  } catch {
    return false
  }
}

describe('task marks', () => {
  it('a task in progress when the team opened still gets its end once it moves to review', async () => {
    const workspace = gitWorkspace()
    const { marks, settled } = marksIn(workspace, { now: false })
    marks.seed([task('in_progress')])
    marks.boardChanged([task('review')])
    await settled()
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
    // Its start was taken before this process: not guessed.
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(false)
  })

  it('a claim and a completion mark the start and the end', async () => {
    const workspace = gitWorkspace()
    const { marks, settled } = marksIn(workspace, { now: false })
    marks.seed([task('pending', null)])
    marks.boardChanged([task('in_progress')])
    await settled()
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(true)
    marks.boardChanged([task('done')])
    await settled()
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
  })

  it('a snapshot git refuses never fails the board change it follows', async () => {
    const workspace = gitWorkspace()
    const failing = { now: true }
    const { marks, settled } = marksIn(workspace, failing)
    marks.seed([task('pending', null)])
    expect(() => marks.boardChanged([task('in_progress')])).not.toThrow()
    await settled()
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(false)
    // A later change marks again once git answers.
    failing.now = false
    marks.boardChanged([task('review')])
    await settled()
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
  })
})
