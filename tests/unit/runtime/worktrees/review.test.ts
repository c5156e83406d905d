import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import type { Reply } from '../../../../src/offline-model/script'
import type { MergeResult, ReviewDiff } from '../../../../src/shared/worktree'
import { cli } from '../../../helpers/cli'
import { gitIn, gitWorkspace } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** A team on a fresh git repository whose teammates play `replies`, each spawned and idle. */
async function teamOf(
  replies: Record<string, Reply[]>,
): Promise<{ team: HostUnderTest; workspace: string; assertConsumed: () => void }> {
  const workspace = gitWorkspace()
  const script = queueScript(replies)
  const team = await startHost(script, { workspace })
  for (const name of Object.keys(replies)) {
    await team.host.spawn({ name, role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
  }
  return { team, workspace, assertConsumed: () => script.assertConsumed() }
}

async function review(workspace: string, ...args: string[]) {
  return cli(['review', ...args, '--workspace', workspace, '--json'])
}

/** Waits until `name` has taken `count` inbox batches into its transcript, then until idle. */
async function delivered(team: HostUnderTest, name: string, count: number): Promise<string[]> {
  await waitFor(
    () => team.records(name, 'inbox').length >= count,
    () => `${count} inbox records for ${name}`,
    { timeout: 10_000 },
  )
  await team.host.whenIdle()
  return team.records(name, 'inbox').flatMap((record) => record.messages.map((m) => m.content))
}

const headOf = (workspace: string): string => gitIn(workspace, 'rev-parse', 'HEAD')

describe('review: diffs', () => {
  it('scopes the diff to the whole branch, the last turn, or a commit range', async () => {
    const { team, workspace, assertConsumed } = await teamOf({
      alice: [
        toolCall('write_file', { path: 'one.txt', content: 'first\n' }),
        toolCall('bash', { command: 'git add -A && git commit -qm "First part"' }),
        text('Done.'),
        toolCall('write_file', { path: 'two.txt', content: 'second\n' }),
        text('Done again.'),
      ],
    })
    team.host.send({ to: 'alice', content: 'One more file, please.' })
    await delivered(team, 'alice', 1)
    assertConsumed()

    const branch = await review(workspace, 'diff', 'alice', '--scope', 'branch')
    expect(branch.code).toBe(0)
    const whole = JSON.parse(branch.stdout) as ReviewDiff
    expect(whole.files.map((file) => file.path).sort()).toEqual(['one.txt', 'two.txt'])
    expect(whole.files[0]).toMatchObject({ status: 'A', additions: 1, deletions: 0 })
    expect(whole.files.find((file) => file.path === 'two.txt')?.patch).toContain('+++ b/two.txt')
    expect(whole.files.find((file) => file.path === 'one.txt')?.patch).not.toContain('two.txt')

    const turn = JSON.parse((await review(workspace, 'diff', 'alice', '--scope', 'turn')).stdout)
    expect((turn as ReviewDiff).files.map((file) => file.path)).toEqual(['two.txt'])

    const range = await review(workspace, 'diff', 'alice', '--from', 'main', '--to', 'team/alice')
    expect((JSON.parse(range.stdout) as ReviewDiff).files.map((file) => file.path)).toEqual([
      'one.txt',
    ])

    const bad = await review(
      workspace,
      'diff',
      'alice',
      '--from',
      '--upload-pack=x',
      '--to',
      'main',
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--from')
  })

  it('scopes the diff to one task: from its claim to its completion', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('claim_task', { id: '1' }),
        toolCall('write_file', { path: 'parser.ts', content: 'export const parse = 1\n' }),
        toolCall('complete_task', { id: '1', result: 'Parser written.' }),
        text('Done.'),
        toolCall('claim_task', { id: '2' }),
        toolCall('write_file', { path: 'parser.test.ts', content: 'test()\n' }),
        text('Tests started.'),
      ],
    })
    const team = await startHost(script, { workspace })
    team.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    team.host.tasks.create({ subject: 'Test the parser', by: 'user' })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Take task 1.' })
    await team.host.whenIdle()
    team.host.send({ to: 'alice', content: 'Now task 2.' })
    await delivered(team, 'alice', 1)
    script.assertConsumed()

    const paths = (diff: ReviewDiff) => diff.files.map((file) => file.path).sort()
    const first = await review(workspace, 'diff', 'alice', '--task', '1')
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ scope: 'task' })
    expect(paths(JSON.parse(first.stdout) as ReviewDiff)).toEqual(['parser.ts'])
    // Task 2 is still in progress: it ends at the worktree as it is now.
    expect(paths(await team.host.worktrees.diff('alice', 'task', undefined, '2'))).toEqual([
      'parser.test.ts',
    ])
    expect(paths(await team.host.worktrees.diff('alice', 'branch'))).toEqual([
      'parser.test.ts',
      'parser.ts',
    ])
    expect(JSON.parse(first.stdout)).not.toHaveProperty('note')
    // A task whose start was never recorded (claimed before marks existed): the whole branch,
    // and the diff says so instead of passing it off as the task's.
    gitIn(workspace, 'update-ref', '-d', 'refs/agent-teams/task/alice/2/start')
    const unmarked = await team.host.worktrees.diff('alice', 'task', undefined, '2')
    expect(paths(unmarked)).toEqual(['parser.test.ts', 'parser.ts'])
    expect(unmarked.note).toContain('Where task #2 began was not recorded')
    expect(unmarked.note).toContain('up to now')
    const bad = await review(workspace, 'diff', 'alice', '--task', '../x')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--task')
    // Two scopes at once are refused, never one of them silently dropped.
    const both = await review(workspace, 'diff', 'alice', '--task', '1', '--scope', 'branch')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--scope branch contradicts --task')
    const ranged = await review(
      workspace,
      'diff',
      'alice',
      '--task',
      '1',
      '--from',
      'main',
      '--to',
      'HEAD',
    )
    expect(ranged.code).toBe(2)
    expect(ranged.stderr).toContain('--task and --from/--to are two scopes')
  })

  it('warns when two teammates change the same file, before either is merged', async () => {
    const { team, workspace } = await teamOf({
      alice: [
        toolCall('write_file', { path: 'src/app.ts', content: 'export const a = 2\n' }),
        text('Done.'),
      ],
      bob: [
        toolCall('write_file', { path: 'src/app.ts', content: 'export const a = 3\n' }),
        toolCall('write_file', { path: 'bob.txt', content: 'only bob\n' }),
        text('Done.'),
      ],
    })
    const diff = JSON.parse((await review(workspace, 'diff', 'alice')).stdout) as ReviewDiff
    expect(diff.overlaps).toEqual({ 'src/app.ts': ['bob'] })
    const views = await team.host.worktrees.views()
    expect(views.get('bob')).toMatchObject({
      changedFiles: 2,
      overlaps: { 'src/app.ts': ['alice'] },
    })
    const plain = await cli(['review', 'diff', 'bob', '--workspace', workspace])
    expect(plain.stdout).toContain('src/app.ts +1 -1  (also changed by alice)')
  })
})

describe('review: comments and rejections', () => {
  it('a line comment reaches the teammate’s inbox naming the file and line, and its transcript', async () => {
    const { team, workspace, assertConsumed } = await teamOf({
      alice: [
        toolCall('write_file', { path: 'a.ts', content: 'export const x = 42\n' }),
        text('Done.'),
        text('I will name the constant.'),
      ],
    })
    const sent = await review(
      workspace,
      'comment',
      'alice',
      '--file',
      'a.ts',
      '--line',
      '1',
      '--text',
      'Name this constant.',
    )
    expect(sent.code).toBe(0)
    const messages = await delivered(team, 'alice', 1)
    assertConsumed()
    expect(messages).toEqual(['Review comment on a.ts, line 1: Name this constant.'])
    const record = team.records('alice', 'inbox')[0]?.messages[0]
    expect(record).toMatchObject({
      from: 'user',
      extra: { review: { kind: 'comment', file: 'a.ts', line: 1 } },
    })
  })

  it('reject sends the reason to the teammate', async () => {
    const { team, workspace } = await teamOf({
      alice: [toolCall('write_file', { path: 'a.ts', content: 'x' }), text('Done.'), text('OK.')],
    })
    expect(
      (await review(workspace, 'reject', 'alice', '--reason', 'Tests are missing.')).code,
    ).toBe(0)
    const messages = await delivered(team, 'alice', 1)
    expect(messages[0]).toBe('Your changes on team/alice were not accepted: Tests are missing.')
    expect((await review(workspace, 'reject', 'alice')).code).toBe(2)
  })
})

describe('review: merge', () => {
  it('accept merges the branch into the base with a merge commit', async () => {
    const merged: string[] = []
    const { team, workspace } = await teamOf({
      alice: [toolCall('write_file', { path: 'feature.txt', content: 'feature\n' }), text('Done.')],
    })
    team.host.worktrees.onMerged((name) => merged.push(name))
    // Alice's task waits in review; bob's is someone else's and stays.
    const mine = team.host.tasks.create({ subject: 'Feature', by: 'lead', owner: 'alice' })
    team.host.tasks.update(mine.id, { status: 'review' }, 'lead')
    const other = team.host.tasks.create({ subject: 'Other', by: 'lead' })
    team.host.tasks.update(other.id, { status: 'review' }, 'lead')
    const result = await team.host.worktrees.merge('alice', {})
    expect(result).toMatchObject({
      outcome: 'merged',
      into: 'main',
      squash: false,
      files: ['feature.txt'],
    })
    expect(merged).toEqual(['alice'])
    // The merge lands the work: the teammate's task in review is done.
    const status = (id: string) => team.host.tasks.view().tasks.find((t) => t.id === id)?.status
    expect(status(mine.id)).toBe('done')
    expect(status(other.id)).toBe('review')
    expect(readFileSync(join(workspace, 'feature.txt'), 'utf8')).toBe('feature\n')
    expect(gitIn(workspace, 'log', '-1', '--format=%P').split(' ')).toHaveLength(2)
    expect(gitIn(workspace, 'log', '-1', '--format=%s')).toBe("Merge team/alice (alice's work)")
    // Nothing is left to merge, and the branch's diff is empty.
    expect(await team.host.worktrees.merge('alice', {})).toEqual({
      outcome: 'nothing',
      into: 'main',
    })
    expect((await team.host.worktrees.diff('alice', 'branch')).files).toEqual([])
  })

  it('squash lands one commit authored by the teammate', async () => {
    const { workspace } = await teamOf({
      alice: [
        toolCall('write_file', { path: 'one.txt', content: '1\n' }),
        toolCall('bash', { command: 'git add -A && git commit -qm "Part one"' }),
        toolCall('write_file', { path: 'two.txt', content: '2\n' }),
        text('Done.'),
      ],
    })
    const before = headOf(workspace)
    const result = await review(workspace, 'merge', 'alice', '--squash')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout) as MergeResult).toMatchObject({
      outcome: 'merged',
      squash: true,
    })
    expect(gitIn(workspace, 'log', '-1', '--format=%P')).toBe(before)
    expect(gitIn(workspace, 'log', '-1', '--format=%an')).toBe('alice')
    expect(gitIn(workspace, 'log', '-1', '--format=%B')).toContain('- Part one')
    expect(gitIn(workspace, 'ls-tree', '--name-only', 'HEAD').split('\n')).toEqual(
      expect.arrayContaining(['one.txt', 'two.txt']),
    )
    const after = JSON.parse((await review(workspace, 'diff', 'alice')).stdout) as ReviewDiff
    expect(after.files).toEqual([])
  })

  it('a conflict is reported with its files, the base is left clean, and it can be handed back', async () => {
    const { team, workspace } = await teamOf({
      alice: [
        toolCall('write_file', { path: 'src/app.ts', content: 'export const a = 2\n' }),
        text('Done.'),
        text('I will merge main and resolve it.'),
      ],
    })
    // Meanwhile the person changes the same line on main.
    writeFileSync(join(workspace, 'src/app.ts'), 'export const a = 99\n')
    gitIn(workspace, 'commit', '-qam', 'Person changes a')
    const before = headOf(workspace)

    const result = await review(workspace, 'merge', 'alice', '--hand-back')
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: 'conflict',
      into: 'main',
      files: ['src/app.ts'],
      handedBack: true,
    })
    expect(headOf(workspace)).toBe(before)
    expect(gitIn(workspace, 'status', '--porcelain', '--untracked-files=no')).toBe('')
    expect(existsSync(join(workspace, '.git/MERGE_HEAD'))).toBe(false)
    expect(readFileSync(join(workspace, 'src/app.ts'), 'utf8')).toBe('export const a = 99\n')
    const messages = await delivered(team, 'alice', 1)
    expect(messages[0]).toContain('conflicts with main in: src/app.ts')
    expect(messages[0]).toContain('git merge main')
  })

  it('refuses to merge into a base with uncommitted changes, and touches nothing', async () => {
    const { team, workspace } = await teamOf({
      alice: [toolCall('write_file', { path: 'feature.txt', content: 'f\n' }), text('Done.')],
    })
    writeFileSync(join(workspace, 'README.md'), 'edited by the person\n')
    await expect(team.host.worktrees.merge('alice', {})).rejects.toThrow(/uncommitted changes/)
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('edited by the person\n')
    expect(existsSync(join(workspace, 'feature.txt'))).toBe(false)
  })

  it('merges into a chosen branch that is checked out nowhere', async () => {
    const { team, workspace } = await teamOf({
      alice: [toolCall('write_file', { path: 'feature.txt', content: 'f\n' }), text('Done.')],
    })
    gitIn(workspace, 'branch', 'release')
    const result = await team.host.worktrees.merge('alice', { into: 'release' })
    expect(result).toMatchObject({ outcome: 'merged', into: 'release' })
    expect(gitIn(workspace, 'show', 'release:feature.txt')).toBe('f')
    expect(existsSync(join(workspace, 'feature.txt'))).toBe(false)
    expect(gitIn(workspace, 'worktree', 'list')).not.toContain('agent-teams-merge-')
  })
})
