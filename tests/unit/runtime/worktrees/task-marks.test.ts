import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../../src/shared/errors'
import { TASKS_FORMAT_VERSION, type Task } from '../../../../src/shared/tasks'
import { TaskMarks, taskRef } from '../../../../src/main/runtime/git/task-marks'
import { gitIn, gitWorkspace } from '../../../helpers/git'

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

/** Marks over a real repository whose "snapshot" is HEAD, or a git failure when asked to. */
function marksIn(workspace: string, failing: { now: boolean }): TaskMarks {
  return new TaskMarks({
    workspace,
    hasWorktree: () => true,
    snapshot: () => {
      if (failing.now) throw new TeamError('io', 'git add -A failed: permission denied')
      return gitIn(workspace, 'rev-parse', 'HEAD')
    },
  })
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
  it('a task in progress when the team opened still gets its end once it moves to review', () => {
    const workspace = gitWorkspace()
    const marks = marksIn(workspace, { now: false })
    marks.seed([task('in_progress')])
    marks.boardChanged([task('review')])
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
    // Its start was taken before this process: not guessed.
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(false)
  })

  it('a claim and a completion mark the start and the end', () => {
    const workspace = gitWorkspace()
    const marks = marksIn(workspace, { now: false })
    marks.seed([task('pending', null)])
    marks.boardChanged([task('in_progress')])
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(true)
    marks.boardChanged([task('done')])
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
  })

  it('a snapshot git refuses never fails the board change it follows', () => {
    const workspace = gitWorkspace()
    const failing = { now: true }
    const marks = marksIn(workspace, failing)
    marks.seed([task('pending', null)])
    expect(() => marks.boardChanged([task('in_progress')])).not.toThrow()
    expect(refExists(workspace, taskRef('alice', '1', 'start'))).toBe(false)
    // A later change marks again once git answers.
    failing.now = false
    marks.boardChanged([task('review')])
    expect(refExists(workspace, taskRef('alice', '1', 'end'))).toBe(true)
  })
})
