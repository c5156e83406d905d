import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MemberWorktree } from '../../src/shared/worktree'
import type { RosterFile } from '../../src/shared/roster'
import { TeamWorktrees } from '../../src/runtime/git/team-worktrees'
import { TeamCheckpoints } from '../../src/runtime/undo/team-checkpoints'
import { TeamUndo, type UndoRecordFields } from '../../src/runtime/undo/team-undo'
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

/** A TeamUndo over the fixture, with a transcript and an inbox kept in memory. */
export function undoOver(
  fixture: UndoFixture,
  options: { afterEachFile?: () => void; busy?: (name: string) => string | null } = {},
): {
  undo: TeamUndo
  records: UndoRecordFields[]
  notices: string[]
  /** The transcript's last seq (the test moves it as turns pass). */
  end: { seq: number }
} {
  const records: UndoRecordFields[] = []
  const notices: string[] = []
  const end = { seq: 0 }
  let id = 0
  const undo = new TeamUndo({
    checkpoints: fixture.checkpoints,
    dataFolder: fixture.dataFolder,
    transcriptEnd: () => end.seq,
    hasUndoRecord: (_name, undoId) => records.some((record) => record.undo_id === undoId),
    appendUndoRecord: (_name, record) => {
      records.push(record)
      end.seq++
    },
    notify: (_name, content) => notices.push(content),
    busy: options.busy ?? (() => null),
    exclusive: (name, work) => fixture.worktrees.enqueue(name, work),
    newId: () => `u${++id}`,
    afterEachFile: options.afterEachFile,
  })
  return { undo, records, notices, end }
}

/** Every file under `folder` (but `.git`) with its bytes, links as `-> target`: a tree to compare. */
export function treeOf(folder: string): Record<string, string> {
  const tree: Record<string, string> = {}
  const walk = (relativeFolder: string): void => {
    for (const entry of readdirSync(join(folder, relativeFolder), { withFileTypes: true })) {
      const path = relativeFolder === '' ? entry.name : `${relativeFolder}/${entry.name}`
      if (entry.name === '.git') continue
      const full = join(folder, path)
      if (entry.isSymbolicLink()) tree[path] = `-> ${readlinkSync(full)}`
      else if (entry.isDirectory()) walk(path)
      else
        tree[path] =
          `${(statSync(full).mode & 0o111) !== 0 ? 'x ' : ''}${readFileSync(full).toString('base64')}`
    }
  }
  walk('')
  return tree
}
