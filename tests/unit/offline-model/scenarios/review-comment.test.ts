import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { demoScript } from '../../../../src/offline-model/scenarios/demo'
import {
  applyReviewComment,
  REVIEW_COMMENT,
} from '../../../../src/offline-model/scenarios/review-comment'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { gitIn, gitWorkspace, worktreeFolder } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

type Assistant = Extract<TranscriptRecord, { kind: 'assistant' }>

const SOURCE = [
  'export function total(values) {',
  '  let sum = 0',
  '  for (const value of values) sum += value',
  '  return sum',
  '}',
  '',
].join('\n')

function lastText(team: HostUnderTest, name: string): string {
  const texts = (record: Assistant): string[] =>
    record.content.flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
  const replies = team.records(name, 'assistant').filter((record) => texts(record).length > 0)
  return texts(replies[replies.length - 1] ?? ({ content: [] } as unknown as Assistant)).join('\n')
}

/** A team with bob spawned (in a worktree when the workspace is a git repository), idle. */
async function teamWithBob(workspace: string): Promise<HostUnderTest> {
  const team = await startHost(demoScript(), { workspace })
  await team.host.spawn({ name: 'bob', role: 'coder', prompt: 'Stand by for review comments.' })
  await team.host.whenIdle()
  return team
}

describe('the offline rule for review comments', () => {
  it('applies a suggestion block to the line', () => {
    const edit = applyReviewComment(
      SOURCE,
      2,
      'Start from the first value:\n```suggestion\n  let sum = values[0] ?? 0\n```',
      'src/total.mjs',
    )
    expect(edit).toEqual({
      ok: true,
      content: SOURCE.replace('  let sum = 0', '  let sum = values[0] ?? 0'),
      summary: 'replaced line 2 with your suggestion',
    })
  })

  it('renames a name everywhere in the file, whole words only', () => {
    const edit = applyReviewComment(SOURCE, 3, 'Please rename `sum` to `total2`.', 'a.mjs')
    expect(edit.ok && edit.content).toBe(SOURCE.replaceAll(/\bsum\b/g, 'total2'))
    expect(edit.ok && edit.summary).toBe('renamed sum to total2 (3 places)')
    // "summary" is not the word "sum".
    expect(applyReviewComment('const summary = 1\n', 1, 'rename sum to x', 'a.js')).toEqual({
      ok: false,
      reason: 'sum does not occur in a.js.',
    })
  })

  it('a `$` in the new name is written as it is, never read as a replacement pattern', () => {
    const edit = applyReviewComment('const sum = 1\n', 1, 'rename sum to $$sum', 'a.js')
    expect(edit.ok && edit.content).toBe('const $$sum = 1\n')
  })

  it('names the file up to the first ", line N: ", whatever the comment says after it', () => {
    const [, file, line] =
      REVIEW_COMMENT.exec('Review comment on src/a.ts, line 3: see b.ts, line 9: same bug') ?? []
    expect([file, line]).toEqual(['src/a.ts', '3'])
  })

  it('adds a comment above the line, indented, in the syntax of the file', () => {
    const edit = applyReviewComment(SOURCE, 4, 'add a comment: the sum of no values is 0', 'a.ts')
    expect(edit.ok && edit.content.split('\n').slice(2, 5)).toEqual([
      '  for (const value of values) sum += value',
      '  // the sum of no values is 0',
      '  return sum',
    ])
    const python = applyReviewComment('x = 1\n', 1, 'Add a comment saying "why one"', 'a.py')
    expect(python.ok && python.content).toBe('# why one\nx = 1\n')
  })

  it('says what it understands instead of guessing, and refuses lines that are not there', () => {
    const vague = applyReviewComment(SOURCE, 2, 'This looks slow.', 'a.ts')
    expect(vague.ok).toBe(false)
    expect(!vague.ok && vague.reason).toContain('"rename X to Y"')
    expect(applyReviewComment(SOURCE, 9, 'add a comment: late', 'a.ts')).toEqual({
      ok: false,
      reason: 'a.ts has 5 lines; there is no line 9 to change.',
    })
  })
})

describe('a teammate answers a review line comment (runtime, real git)', () => {
  it('edits the named line in its worktree, commits it, and replies; the diff changes', async () => {
    const workspace = gitWorkspace({ 'src/total.ts': SOURCE })
    const team = await teamWithBob(workspace)
    const folder = worktreeFolder(workspace, 'bob')
    expect((await team.host.worktrees.diff('bob', 'branch')).files).toEqual([])

    team.host.worktrees.comment('bob', {
      file: 'src/total.ts',
      line: 4,
      text: 'add a comment: the sum of no values is 0',
    })
    await team.host.whenIdle()

    expect(team.host.errors()).toEqual([])
    // The message named the file and line; bob read, wrote, committed, and said so.
    const [mail] = team.records('bob', 'inbox').flatMap((record) => record.messages)
    expect(mail).toMatchObject({ from: 'user', content: expect.stringMatching(/^Review comment/) })
    const tools = team
      .records('bob', 'tool-result')
      .map((record) => [record.name, record.is_error] as const)
    expect(tools).toEqual([
      ['read_file', false],
      ['write_file', false],
      ['bash', false],
    ])
    expect(readFileSync(join(folder, 'src/total.ts'), 'utf8')).toContain(
      '  // the sum of no values is 0\n  return sum',
    )
    expect(gitIn(workspace, 'log', '--format=%an %s', 'main..team/bob')).toBe(
      'bob Review: added the comment above line 4 in src/total.ts',
    )
    expect(gitIn(folder, 'status', '--porcelain')).toBe('')
    const commit = gitIn(workspace, 'rev-parse', '--short', 'team/bob')
    expect(lastText(team, 'bob')).toBe(
      `Done: added the comment above line 4 in src/total.ts, as you asked; committed on team/bob as ${commit}.`,
    )

    // The person's view of the branch: the one added line.
    const [file] = (await team.host.worktrees.diff('bob', 'branch')).files
    expect(file).toMatchObject({ path: 'src/total.ts', additions: 1, deletions: 0 })
    expect(file?.patch).toContain('+  // the sum of no values is 0')
    // main is untouched until the person merges.
    expect(gitIn(workspace, 'show', 'main:src/total.ts')).toBe(SOURCE.trimEnd())
  })

  it('in the shared workspace it edits the file and does not commit', async () => {
    const { dir } = tempWorkspace()
    const team = await teamWithBob(dir)
    writeFileSync(join(dir, 'total.js'), SOURCE)
    team.host.worktrees.comment('bob', {
      file: 'total.js',
      line: 1,
      text: 'rename total to sumAll',
    })
    await team.host.whenIdle()

    expect(team.host.errors()).toEqual([])
    expect(readFileSync(join(dir, 'total.js'), 'utf8')).toBe(
      SOURCE.replace('function total(', 'function sumAll('),
    )
    expect(team.records('bob', 'tool-result').map((record) => record.name)).toEqual([
      'read_file',
      'write_file',
    ])
    expect(lastText(team, 'bob')).toBe(
      'Done: renamed total to sumAll (1 place) in total.js, as you asked.',
    )
  })

  it('answers a comment it cannot apply with what it understands, changing nothing', async () => {
    const workspace = gitWorkspace({ 'src/total.ts': SOURCE })
    const team = await teamWithBob(workspace)
    team.host.worktrees.comment('bob', { file: 'src/total.ts', line: 2, text: 'Make it faster.' })
    await team.host.whenIdle()

    expect(team.records('bob', 'tool-result').map((record) => record.name)).toEqual(['read_file'])
    expect(lastText(team, 'bob')).toMatch(/^About your comment on src\/total\.ts, line 2: /)
    expect((await team.host.worktrees.diff('bob', 'branch')).files).toEqual([])
  })
})
