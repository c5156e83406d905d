import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeDemoWorkspace } from '../../../../src/app/demo-workspace'
import {
  DEMO_MODULE_PATH,
  DEMO_REQUEST,
  DEMO_TEST_PATH,
  demoScript,
} from '../../../../src/offline-model/scenarios/demo'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { gitIn, worktreeFolder } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { run } from '../../../helpers/processes'
import { tempWorkspace } from '../../../helpers/workspace'

type Assistant = Extract<TranscriptRecord, { kind: 'assistant' }>

/** The demo as the window starts it: a fresh demo folder, the person's request, an idle team. */
async function runDemo(workspace: string): Promise<HostUnderTest> {
  const team = await startHost(demoScript(), { workspace })
  team.host.chat(DEMO_REQUEST)
  await team.host.whenIdle()
  return team
}

function lastText(team: HostUnderTest, name: string): string {
  const texts = (record: Assistant): string[] =>
    record.content.flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
  const replies = team.records(name, 'assistant').filter((record) => texts(record).length > 0)
  const last = replies[replies.length - 1]
  return last ? texts(last).join('\n') : ''
}

/** Each task as [subject, owner, status, blocked_by]. */
function board(team: HostUnderTest): [string, string | null, string, string[]][] {
  return team.host.tasks
    .view()
    .tasks.map((task) => [task.subject, task.owner, task.status, task.blocked_by])
}

function demoFolder(): Promise<string> {
  const { dir } = tempWorkspace('agent-teams-demo-parent-')
  return makeDemoWorkspace(dir)
}

describe('the offline demo on the task board, with a worktree per teammate (real git)', () => {
  it('makes its folder a git repository on main with one clean commit', async () => {
    const folder = await demoFolder()
    expect(gitIn(folder, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main')
    expect(gitIn(folder, 'rev-list', '--count', 'HEAD')).toBe('1')
    expect(gitIn(folder, 'ls-files').split('\n').sort()).toEqual(['.gitignore', 'README.md'])
    // The team's own files are ignored: the base stays clean while the team runs.
    expect(gitIn(folder, 'status', '--porcelain')).toBe('')
  })

  it('puts the work on the board, and each teammate does its task in its own worktree', async () => {
    const team = await runDemo(await demoFolder())
    const workspace = team.workspace
    expect(team.host.errors()).toEqual([])

    // The lead split the request into two tasks, the tests blocked by the module; alice's is
    // done, bob's waits for the person's review.
    expect(board(team)).toEqual([
      [`Write ${DEMO_MODULE_PATH}`, 'alice', 'done', []],
      [`Test ${DEMO_MODULE_PATH}`, 'bob', 'review', ['1']],
    ])
    const [write, test] = team.host.tasks.view().tasks
    expect(write?.created_by).toBe('lead')
    expect(write?.result).toContain('on team/alice')
    expect(write?.notes.map((note) => note.text)).toEqual([
      'claimed by alice',
      'completed by alice',
    ])
    expect(test?.notes.map((note) => note.text)).toContain('claimed by bob')
    expect(test?.notes.at(-1)?.text).toMatch(/^All 4 tests passed\. On team\/bob, ready to merge\./)

    // Each teammate has its worktree and branch, from main, with its own commits.
    for (const name of ['alice', 'bob']) {
      expect(team.host.worktrees.record(name)?.base).toBe('main')
      expect(existsSync(join(worktreeFolder(workspace, name), '.git'))).toBe(true)
      expect(gitIn(worktreeFolder(workspace, name), 'status', '--porcelain')).toBe('')
    }
    expect(gitIn(workspace, 'log', '--format=%an %s', 'main..team/alice')).toBe(
      `alice Add ${DEMO_MODULE_PATH}: mean and median`,
    )
    // bob took alice's branch in before testing it, then committed his tests on top.
    expect(gitIn(workspace, 'log', '--format=%an %s', 'main..team/bob').split('\n')).toEqual([
      `bob Test ${DEMO_MODULE_PATH} with node:test`,
      `alice Add ${DEMO_MODULE_PATH}: mean and median`,
    ])
    // Nothing reached main yet: the base holds only the demo's first commit.
    expect(existsSync(join(workspace, DEMO_MODULE_PATH))).toBe(false)
    expect(gitIn(workspace, 'status', '--porcelain')).toBe('')

    // The lead summed up from the real board and roster.
    const summary = lastText(team, 'lead')
    expect(summary).toMatch(/^Done\. alice wrote demo\/stats\.mjs/)
    expect(summary).toContain('All 4 tests passed')
    expect(summary).toContain(`#1 [done] Write ${DEMO_MODULE_PATH} (owner: alice)`)
    expect(summary).toContain(`#2 [review] Test ${DEMO_MODULE_PATH} (owner: bob; after 1)`)
    expect(summary).toContain('alice on team/alice (1 file changed); bob on team/bob (2 files')

    // bob's suite passes in his worktree, run by the test itself.
    const suite = await run(process.execPath, ['--test', DEMO_TEST_PATH], {
      cwd: worktreeFolder(workspace, 'bob'),
    })
    expect(suite.stdout).toMatch(/^[#ℹ] pass 4\b/m)
    expect(suite.code).toBe(0)

    // The person merges bob's branch: his task moves to done and main has both files.
    const merged = await team.host.worktrees.merge('bob', {})
    expect(merged.outcome).toBe('merged')
    expect(board(team).map(([, , status]) => status)).toEqual(['done', 'done'])
    expect(gitIn(workspace, 'show', `main:${DEMO_TEST_PATH}`)).toContain('node:test')
    expect(readFileSync(join(workspace, DEMO_MODULE_PATH), 'utf8')).toContain(
      'export function mean',
    )
  })

  it('keeps the shared workspace when the folder is not a git repository', async () => {
    const team = await runDemo(tempWorkspace().dir)
    expect(team.host.errors()).toEqual([])
    // Without a branch to review, bob completes his task: both are done.
    expect(board(team)).toEqual([
      [`Write ${DEMO_MODULE_PATH}`, 'alice', 'done', []],
      [`Test ${DEMO_MODULE_PATH}`, 'bob', 'done', ['1']],
    ])
    expect(['alice', 'bob'].map((name) => team.host.worktrees.record(name))).toEqual([null, null])
    expect(existsSync(worktreeFolder(team.workspace, 'alice'))).toBe(false)
    expect(readFileSync(join(team.workspace, DEMO_TEST_PATH), 'utf8')).toContain('node:test')
    const summary = lastText(team, 'lead')
    expect(summary).toContain(`#2 [done] Test ${DEMO_MODULE_PATH} (owner: bob; after 1)`)
    expect(summary).not.toContain('branch')
  })
})
