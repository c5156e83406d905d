import { join } from 'node:path'
import type { MemberWorktree } from '../../src/shared/worktree'
import type { RosterFile } from '../../src/shared/roster'
import { TeamWorktrees } from '../../src/runtime/git/team-worktrees'
import { TeamCheckpoints } from '../../src/runtime/undo/team-checkpoints'
import { gitWorkspace } from './git'
import { tempWorkspace } from './workspace'

/** A workspace repository, its worktrees and checkpoints, with `alice` in her own worktree. */
export interface UndoFixture {
  readonly workspace: string
  readonly dataFolder: string
  readonly worktrees: TeamWorktrees
  readonly checkpoints: TeamCheckpoints
  /** alice's worktree folder. */
  readonly folder: string
  /** The task alice has in progress (the test sets it). */
  task: string | null
  /** The clock, in seconds (the test moves it). */
  now: number
}

export async function undoFixture(
  files?: Record<string, string>,
  members: { name: string; worktree: boolean }[] = [{ name: 'alice', worktree: true }],
): Promise<UndoFixture> {
  const workspace = gitWorkspace(files)
  const dataFolder = join(tempWorkspace('agent-teams-data-').dir, 'data')
  const records = new Map<string, MemberWorktree | null>()
  const roster = (): RosterFile =>
    ({
      team_name: 'test',
      members: members.map((member) => ({
        name: member.name,
        role: 'coder',
        status: 'idle',
        worktree: records.get(member.name) ?? null,
      })),
    }) as unknown as RosterFile
  const worktrees = new TeamWorktrees({
    workspace,
    dataFolder,
    roster,
    sendToTeammate: () => undefined,
  })
  for (const member of members)
    records.set(member.name, member.worktree ? await worktrees.git.create(member.name) : null)
  const fixture: UndoFixture = {
    workspace,
    dataFolder,
    worktrees,
    checkpoints: undefined as unknown as TeamCheckpoints,
    folder: worktrees.git.record('alice')?.folder ?? workspace,
    task: null,
    now: 1_000_000,
  }
  const checkpoints = new TeamCheckpoints({
    worktrees,
    dataFolder,
    taskOf: () => fixture.task,
    now: () => fixture.now,
  })
  return Object.assign(fixture, { checkpoints })
}
