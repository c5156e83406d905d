import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commitAll, gitIn, writeFiles } from '../../../helpers/git'
import { treeOf, undoFixture, undoOver, type UndoFixture } from '../../../helpers/undo'

/** A turn of alice's: a checkpoint as the model is asked, her changes, then rest. */
async function turn(fixture: UndoFixture, end: { seq: number }, work: () => void): Promise<void> {
  await fixture.checkpoints.takeNow('alice', {
    kind: 'turn',
    turnSeq: end.seq + 1,
    opensTurn: true,
  })
  end.seq += 3
  work()
  await fixture.checkpoints.takeNow('alice', { kind: 'rest', turnSeq: end.seq + 1 })
  fixture.now += 60
}

describe('undo of a teammate in its worktree', () => {
  it('undoes the last turn exactly: written, edited, deleted and new files', async () => {
    const fixture = await undoFixture({ 'README.md': '# P\n', 'src/a.ts': 'a\n', 'bin/run': 'r\n' })
    const { undo, end, records, notices } = undoOver(fixture)
    const folder = fixture.folder
    await turn(fixture, end, () => writeFiles(folder, { 'notes.txt': 'first\n' }))
    const before = treeOf(folder)
    const indexBefore = gitIn(folder, 'diff', '--cached', '--stat')
    await turn(fixture, end, () => {
      writeFiles(folder, { 'src/a.ts': 'changed\n', 'src/deep/new.ts': 'new\n' })
      rmSync(join(folder, 'README.md'))
      chmodSync(join(folder, 'bin/run'), 0o755)
      writeFileSync(join(folder, 'bin.dat'), Buffer.from([0, 1, 2, 255, 10, 13]))
    })
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.files.map((file) => [file.path, file.change]).sort()).toEqual([
      ['README.md', 'A'],
      ['bin.dat', 'D'],
      ['bin/run', 'M'],
      ['src/a.ts', 'M'],
      ['src/deep/new.ts', 'D'],
    ])
    expect(plan.files.every((file) => file.changedBy === null)).toBe(true)
    expect(plan.files.find((file) => file.path === 'src/a.ts')?.patch).toContain('-changed')
    const result = await undo.apply({
      name: 'alice',
      target: plan.target,
      planId: plan.planId,
      by: 'user',
    })
    expect(treeOf(folder)).toEqual(before)
    expect(existsSync(join(folder, 'src/deep'))).toBe(false)
    expect(gitIn(folder, 'diff', '--cached', '--stat')).toBe(indexBefore)
    expect(result.restored).toHaveLength(5)
    expect(records).toMatchObject([
      { kind: 'undo', undo_id: result.undoId, from_seq: 4, to_seq: 6 },
    ])
    expect(notices[0]).toContain('record #4 to #6')

    // The redo brings the turn's work back, byte for byte.
    const after = treeOf(folder)
    await undo.redo('alice', result.undoId, 'user')
    expect(treeOf(folder)['src/a.ts']).toBe(Buffer.from('changed\n').toString('base64'))
    expect(treeOf(folder)['README.md']).toBeUndefined()
    expect(records.at(-1)).toMatchObject({ redo_of: result.undoId })
    // And the redo is an undo too: taking it back returns to the undone state.
    await undo.redo('alice', records.at(-1)?.undo_id ?? '', 'user')
    expect(treeOf(folder)).toEqual(after)
  })

  it('undoes a task and a range back to their checkpoints', async () => {
    const fixture = await undoFixture()
    const { undo, end } = undoOver(fixture)
    const folder = fixture.folder
    await turn(fixture, end, () => writeFiles(folder, { 'one.txt': '1\n' }))
    const beforeTask = treeOf(folder)
    fixture.task = '3'
    await turn(fixture, end, () => writeFiles(folder, { 'two.txt': '2\n' }))
    const middle = treeOf(folder)
    await turn(fixture, end, () => writeFiles(folder, { 'one.txt': 'one again\n' }))
    fixture.task = null
    await turn(fixture, end, () => writeFiles(folder, { 'three.txt': '3\n' }))

    const seqOfMiddle = undo
      .list('alice')
      .checkpoints.find(
        (checkpoint) => checkpoint.opensTurn === true && checkpoint.turnSeq === 7,
      )?.seq
    const range = await undo.plan('alice', { by: 'checkpoint', seq: seqOfMiddle ?? 0 })
    await undo.apply({ name: 'alice', target: range.target, planId: range.planId, by: 'user' })
    expect(treeOf(folder)).toEqual(middle)

    const task = await undo.plan('alice', { by: 'task', task: '3' })
    await undo.apply({ name: 'alice', target: task.target, planId: task.planId, by: 'user' })
    expect(treeOf(folder)).toEqual(beforeTask)
  })

  it('never overwrites a file the person changed since, unless told to', async () => {
    const fixture = await undoFixture()
    const { undo, end } = undoOver(fixture)
    const folder = fixture.folder
    await turn(fixture, end, () => writeFiles(folder, { 'a.txt': 'agent\n', 'b.txt': 'agent\n' }))
    // The person edits a.txt while alice rests.
    writeFiles(folder, { 'a.txt': 'person\n' })
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.files.find((file) => file.path === 'a.txt')?.changedBy).toBe('user')
    expect(plan.files.find((file) => file.path === 'b.txt')?.changedBy).toBeNull()
    const result = await undo.apply({
      name: 'alice',
      target: plan.target,
      planId: plan.planId,
      by: 'user',
    })
    expect(result.kept).toEqual(['a.txt'])
    expect(existsSync(join(folder, 'b.txt'))).toBe(false)
    expect(treeOf(folder)['a.txt']).toBe(Buffer.from('person\n').toString('base64'))

    // Asked to, it overwrites it (a.txt did not exist before the turn: it goes).
    const again = await undo.plan('alice', { by: 'checkpoint', seq: plan.checkpoint.seq })
    await undo.apply({
      name: 'alice',
      target: again.target,
      planId: again.planId,
      overwrite: ['a.txt'],
      by: 'user',
    })
    expect(existsSync(join(folder, 'a.txt'))).toBe(false)
  })

  it('refuses a plan that no longer matches the folder', async () => {
    const fixture = await undoFixture()
    const { undo, end } = undoOver(fixture)
    await turn(fixture, end, () => writeFiles(fixture.folder, { 'a.txt': 'agent\n' }))
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    writeFiles(fixture.folder, { 'c.txt': 'later\n' })
    await expect(
      undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' }),
    ).rejects.toMatchObject({ code: 'plan-outdated' })
    expect(existsSync(join(fixture.folder, 'a.txt'))).toBe(true)
  })

  it('resets the branch over commits nothing else holds, refuses when a merge holds them', async () => {
    const fixture = await undoFixture()
    const { undo, end } = undoOver(fixture)
    const folder = fixture.folder
    const start = gitIn(folder, 'rev-parse', 'HEAD')
    await turn(fixture, end, () => {
      writeFiles(folder, { 'c.txt': 'committed\n' })
      commitAll(folder, 'agent commit')
    })
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.commits).toEqual({ count: 1, action: 'reset', reason: null })

    // Merged into main, the commit is held elsewhere: refused, the branch left alone.
    gitIn(fixture.workspace, 'merge', '-q', '--no-edit', 'team/alice')
    const held = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(held.commits.action).toBe('refused')
    expect(held.commits.reason).toContain('refs/heads/main')
    expect(held.commits.reason).toContain('git revert')
    const log = gitIn(fixture.workspace, 'log', '--format=%H', 'team/alice')
    await expect(
      undo.apply({ name: 'alice', target: held.target, planId: held.planId, by: 'user' }),
    ).rejects.toMatchObject({ code: 'undo-refused' })
    expect(gitIn(fixture.workspace, 'log', '--format=%H', 'team/alice')).toBe(log)
    expect(existsSync(join(folder, 'c.txt'))).toBe(true)

    // Once main no longer holds it, the undo resets the branch and the index with it.
    gitIn(fixture.workspace, 'reset', '-q', '--hard', start)
    const free = await undo.plan('alice', { by: 'turns', turns: 1 })
    const result = await undo.apply({
      name: 'alice',
      target: free.target,
      planId: free.planId,
      by: 'user',
    })
    expect(result.resetTo).toBe(start)
    expect(gitIn(folder, 'rev-parse', 'team/alice')).toBe(start)
    expect(gitIn(folder, 'status', '--porcelain')).toBe('')
  })

  it('checkpoints stay off the branch and out of the agent index', async () => {
    const fixture = await undoFixture()
    const { end } = undoOver(fixture)
    const folder = fixture.folder
    writeFiles(folder, { 'staged.txt': 'staged\n' })
    gitIn(folder, 'add', 'staged.txt')
    const log = gitIn(fixture.workspace, 'log', '--format=%H', 'team/alice')
    const cached = gitIn(folder, 'diff', '--cached')
    const status = gitIn(folder, 'status', '--porcelain')
    await turn(fixture, end, () => writeFiles(folder, { 'x.txt': 'x\n' }))
    expect(gitIn(fixture.workspace, 'log', '--format=%H', 'team/alice')).toBe(log)
    expect(gitIn(folder, 'diff', '--cached')).toBe(cached)
    expect(gitIn(folder, 'status', '--porcelain')).toBe(`${status}\n?? x.txt`)
    expect(gitIn(fixture.workspace, 'stash', 'list')).toBe('')
    expect(
      gitIn(
        fixture.workspace,
        'for-each-ref',
        '--format=%(refname)',
        'refs/agent-teams/checkpoints/alice',
      ),
    ).toContain('refs/agent-teams/checkpoints/alice/1')
  })

  it('lists ignored files as not covered and leaves them alone', async () => {
    const fixture = await undoFixture({ '.gitignore': 'build/\n*.log\n', 'a.txt': 'a\n' })
    const { undo, end } = undoOver(fixture)
    await turn(fixture, end, () =>
      writeFiles(fixture.folder, { 'build/out.js': 'x\n', 'debug.log': 'l\n', 'a.txt': 'b\n' }),
    )
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.notCovered.sort()).toEqual(['build/', 'debug.log'])
    expect(plan.files.map((file) => file.path)).toEqual(['a.txt'])
    await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })
    expect(existsSync(join(fixture.folder, 'build/out.js'))).toBe(true)
  })
})

describe('undo where the repository ignores .team/', () => {
  it('takes checkpoints and undoes a turn in the workspace itself', async () => {
    const fixture = await undoFixture(
      { '.gitignore': '.team/\n', 'a.txt': 'a\n', '.team/config.json': '{}\n' },
      [{ name: 'alice', worktree: false }],
    )
    const { undo, end } = undoOver(fixture)
    await turn(fixture, end, () => writeFiles(fixture.folder, { 'a.txt': 'b\n', 'new.txt': 'n\n' }))
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.files.map((file) => file.path).sort()).toEqual(['a.txt', 'new.txt'])
    await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })
    expect(readFileSync(join(fixture.folder, 'a.txt'), 'utf8')).toBe('a\n')
    expect(existsSync(join(fixture.folder, 'new.txt'))).toBe(false)
    expect(readFileSync(join(fixture.folder, '.team/config.json'), 'utf8')).toBe('{}\n')
  })
})

describe('undo in a hostile worktree', () => {
  it('never writes through a planted symbolic link, never runs a hook', async () => {
    const fixture = await undoFixture({ 'x/keep.txt': 'inside\n', 'a.txt': 'a\n' })
    const { undo, end } = undoOver(fixture)
    const folder = fixture.folder
    const outside = join(fixture.dataFolder, '..', 'outside')
    mkdirSync(outside, { recursive: true })
    const marker = join(outside, 'hook-ran')
    // Hooks in the repository (and its worktree's own config) that would leave a marker.
    const hooks = join(fixture.workspace, '.git', 'hooks')
    for (const hook of [
      'post-checkout',
      'reference-transaction',
      'post-index-change',
      'pre-commit',
    ])
      writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 })
    await turn(fixture, end, () => {
      // The agent swaps its folder x for a link out of the worktree, and edits a.txt.
      rmSync(join(folder, 'x'), { recursive: true })
      symlinkSync(outside, join(folder, 'x'))
      writeFiles(folder, { 'a.txt': 'changed\n' })
      // Its .git file now points elsewhere: the app uses its own record, not this file.
      writeFileSync(join(folder, '.git'), `gitdir: ${outside}\n`)
    })
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })
    expect(existsSync(join(outside, 'keep.txt'))).toBe(false)
    expect(treeOf(folder)['x/keep.txt']).toBe(Buffer.from('inside\n').toString('base64'))
    expect(treeOf(folder)['a.txt']).toBe(Buffer.from('a\n').toString('base64'))
    expect(existsSync(marker)).toBe(false)
  })
})

describe('undo and file names git reads as patterns', () => {
  it('a file named `*` is restored alone: what else the agent staged stays staged', async () => {
    const fixture = await undoFixture({ '*': 'star\n', 'b.txt': 'b\n' })
    const { undo, end } = undoOver(fixture)
    const folder = fixture.folder
    writeFiles(folder, { 'b.txt': 'staged\n' })
    gitIn(folder, 'add', 'b.txt')
    const cached = gitIn(folder, 'diff', '--cached', '--name-only')
    await turn(fixture, end, () => {
      writeFiles(folder, { '*': 'changed\n' })
      gitIn(folder, '--literal-pathspecs', 'add', '*')
    })
    const plan = await undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.files.map((file) => file.path)).toEqual(['*'])
    await undo.apply({ name: 'alice', target: plan.target, planId: plan.planId, by: 'user' })
    expect(treeOf(folder)['*']).toBe(Buffer.from('star\n').toString('base64'))
    expect(gitIn(folder, 'diff', '--cached', '--name-only')).toBe(cached)
  })
})
