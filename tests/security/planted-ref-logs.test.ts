import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mergeBranch } from '../../src/runtime/git/merge'
import { commitAll, gitIn, writeFiles } from '../helpers/git'
import { undoFixture, undoOver, type UndoFixture } from '../helpers/undo'

/**
 * Reflogs an agent planted: git appends to a ref's log by opening its path, following a link
 * (creating the target) or writing a hard-linked file. No git call of the app may append to a
 * file of the person's that way.
 */

/** A file of the person's outside every sandbox, and where a link may point at a new one. */
function personFiles(fixture: UndoFixture): { existing: string; missing: string } {
  const home = join(fixture.dataFolder, '..', 'home')
  mkdirSync(home, { recursive: true })
  const existing = join(home, '.gitconfig')
  writeFileSync(existing, '[user]\n\tname = Person\n')
  return { existing, missing: join(home, '.bashrc') }
}

function plant(path: string, link: (path: string) => void): void {
  mkdirSync(dirname(path), { recursive: true })
  rmSync(path, { force: true })
  link(path)
}

/** alice commits in a turn; the plan to undo it resets her branch. */
async function committedTurn(fixture: UndoFixture) {
  const { undo, end } = undoOver(fixture)
  const start = gitIn(fixture.folder, 'rev-parse', 'HEAD')
  await fixture.checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 1, opensTurn: true })
  end.seq += 3
  writeFiles(fixture.folder, { 'c.txt': 'committed\n' })
  commitAll(fixture.folder, 'agent commit')
  await fixture.checkpoints.takeNow('alice', { kind: 'rest', turnSeq: end.seq + 1 })
  fixture.now += 60
  const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
  expect(plan.commits.action).toBe('reset')
  return { undo, plan, start }
}

describe("undo moves an agent's branch without writing a log it planted", () => {
  it('a branch log linked to a file of the person and a logs/HEAD linked to a missing one', async () => {
    const fixture = await undoFixture()
    const { existing, missing } = personFiles(fixture)
    const { undo, plan, start } = await committedTurn(fixture)
    const gitDir = fixture.worktrees.git.record('alice')?.git_dir ?? ''
    plant(join(fixture.workspace, '.git/logs/refs/heads/team/alice'), (path) =>
      symlinkSync(existing, path),
    )
    plant(join(gitDir, 'logs/HEAD'), (path) => symlinkSync(missing, path))
    const before = readFileSync(existing, 'utf8')

    const result = await undo.apply({
      name: 'alice',
      target: plan.target,
      planId: plan.planId,
      by: 'user',
    })

    expect(result.resetTo).toBe(start)
    expect(gitIn(fixture.workspace, 'rev-parse', 'refs/heads/team/alice')).toBe(start)
    expect(gitIn(fixture.folder, 'status', '--porcelain')).toBe('')
    expect(readFileSync(existing, 'utf8')).toBe(before)
    expect(existsSync(missing)).toBe(false)
  })

  it('a hard-linked branch log, and a packed branch (its loose file wins)', async () => {
    const fixture = await undoFixture()
    const { existing } = personFiles(fixture)
    const { undo, plan, start } = await committedTurn(fixture)
    gitIn(fixture.workspace, 'pack-refs', '--all')
    expect(existsSync(join(fixture.workspace, '.git/refs/heads/team/alice'))).toBe(false)
    plant(join(fixture.workspace, '.git/logs/refs/heads/team/alice'), (path) =>
      linkSync(existing, path),
    )
    const before = readFileSync(existing, 'utf8')

    await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })

    expect(gitIn(fixture.workspace, 'rev-parse', 'refs/heads/team/alice')).toBe(start)
    expect(readFileSync(existing, 'utf8')).toBe(before)
  })

  it('a branch file replaced by a link is replaced, not written through', async () => {
    const fixture = await undoFixture()
    const { existing } = personFiles(fixture)
    const { undo, plan, start } = await committedTurn(fixture)
    const tip = gitIn(fixture.workspace, 'rev-parse', 'refs/heads/team/alice')
    // The link's target holds the tip, so git still reads the branch where the plan found it.
    const decoy = join(dirname(existing), 'decoy')
    writeFileSync(decoy, `${tip}\n`)
    plant(join(fixture.workspace, '.git/refs/heads/team/alice'), (path) => symlinkSync(decoy, path))

    await expect(
      undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' }),
    ).rejects.toMatchObject({ code: 'path-refused' })
    expect(readFileSync(decoy, 'utf8')).toBe(`${tip}\n`)
    expect(start).not.toBe(tip)
  })
})

describe("the app's other ref updates refuse a planted log", () => {
  it('its own refs: no log started, a planted one refused and left as it was', async () => {
    const fixture = await undoFixture()
    const { existing } = personFiles(fixture)
    const worktrees = fixture.worktrees.git
    gitIn(fixture.workspace, 'config', 'core.logAllRefUpdates', 'always')
    const head = gitIn(fixture.workspace, 'rev-parse', 'HEAD')
    await worktrees.setRef('refs/agent-teams/test/one', head)
    expect(existsSync(join(fixture.workspace, '.git/logs/refs/agent-teams/test/one'))).toBe(false)

    plant(join(fixture.workspace, '.git/logs/refs/agent-teams/test/two'), (path) =>
      symlinkSync(existing, path),
    )
    const before = readFileSync(existing, 'utf8')
    await expect(worktrees.setRef('refs/agent-teams/test/two', head)).rejects.toMatchObject({
      code: 'unsafe-repository',
      message: expect.stringContaining('logs/refs/agent-teams/test/two is a symbolic link'),
    })
    expect(readFileSync(existing, 'utf8')).toBe(before)
  })

  it("a commit in a teammate's worktree whose logs/HEAD is linked out", async () => {
    const fixture = await undoFixture()
    const { existing } = personFiles(fixture)
    const gitDir = fixture.worktrees.git.record('alice')?.git_dir ?? ''
    plant(join(gitDir, 'logs/HEAD'), (path) => symlinkSync(existing, path))
    writeFiles(fixture.folder, { 'w.txt': 'work\n' })
    const before = readFileSync(existing, 'utf8')
    await expect(fixture.worktrees.git.checkpoint('alice', 'wip')).rejects.toMatchObject({
      code: 'unsafe-repository',
    })
    expect(readFileSync(existing, 'utf8')).toBe(before)
  })

  it("the person's Accept: a merge into main whose log is hard-linked says what to remove", async () => {
    const fixture = await undoFixture()
    const { existing } = personFiles(fixture)
    writeFiles(fixture.folder, { 'w.txt': 'work\n' })
    commitAll(fixture.folder, 'work')
    const log = join(fixture.workspace, '.git/logs/refs/heads/main')
    plant(log, (path) => linkSync(existing, path))
    const main = gitIn(fixture.workspace, 'rev-parse', 'main')
    const before = readFileSync(existing, 'utf8')
    const merged = mergeBranch(fixture.worktrees.git, 'alice', { into: 'main', squash: false })
    await expect(merged).rejects.toMatchObject({ code: 'unsafe-repository' })
    await expect(merged).rejects.toThrow(/2 hard links.*your own git would too.*rm "/s)
    expect(readFileSync(existing, 'utf8')).toBe(before)
    expect(gitIn(fixture.workspace, 'rev-parse', 'main')).toBe(main)
    // Removed, the merge goes through.
    rmSync(log)
    await expect(
      mergeBranch(fixture.worktrees.git, 'alice', { into: 'main', squash: false }),
    ).resolves.toMatchObject({ outcome: 'merged' })
  })
})
