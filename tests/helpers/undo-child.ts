/**
 * A process that undoes alice's last turn and is killed (SIGKILL, by itself) after `kill-after`
 * files written or removed: what a crash in the middle of an undo leaves.
 * Usage: node --import tsx tests/helpers/undo-child.ts <workspace> <data folder> <kill-after>
 */
import type { RosterFile } from '../../src/shared/roster'
import { TeamWorktrees } from '../../src/runtime/git/team-worktrees'
import { TeamCheckpoints } from '../../src/runtime/undo/team-checkpoints'
import { TeamUndo } from '../../src/runtime/undo/team-undo'

const [workspace = '', dataFolder = '', killAfter = '1', worktree = ''] = process.argv.slice(2)
const roster = (): RosterFile =>
  ({
    team_name: 'test',
    members: [{ name: 'alice', role: 'coder', status: 'idle', worktree: JSON.parse(worktree) }],
  }) as unknown as RosterFile
const worktrees = new TeamWorktrees({
  workspace,
  dataFolder,
  roster,
  sendToTeammate: () => undefined,
})
const checkpoints = new TeamCheckpoints({
  worktrees,
  dataFolder,
  taskOf: () => null,
  now: () => Date.now() / 1000,
})
let files = 0
const undo = new TeamUndo({
  checkpoints,
  dataFolder,
  transcriptEnd: () => 6,
  hasUndoRecord: () => false,
  appendUndoRecord: () => undefined,
  notify: () => undefined,
  busy: () => null,
  exclusive: (_name, work) => work(),
  newId: () => 'u-crash',
  afterEachFile: () => {
    if (++files >= Number(killAfter)) process.kill(process.pid, 'SIGKILL')
  },
})
const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })
