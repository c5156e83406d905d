import { execFile } from 'node:child_process'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  GitRefWatcher,
  watchFolderWithNode as nodeWatch,
  type GitRefWatcherOptions,
  type WatchFolder,
} from '../../../../src/runtime/git/ref-watcher'
import { gitIn, gitWorkspace } from '../../../helpers/git'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const run = promisify(execFile)

/** `git args…` in another process, as a person's terminal or a teammate's bash would run it. */
async function gitElsewhere(cwd: string, ...args: string[]): Promise<void> {
  await run('git', args, { cwd, env: { ...process.env, LC_ALL: 'C' } })
}

interface Watching {
  readonly watcher: GitRefWatcher
  readonly logs: string[]
  /** How many times the watcher said the refs changed. */
  readonly changes: () => number
  /** Waits (generously) until the watcher said so at least `count` times in all. */
  readonly changed: (count: number) => Promise<void>
}

async function watchRefs(
  workspace: string,
  options: Partial<GitRefWatcherOptions> = {},
): Promise<Watching> {
  const logs: string[] = []
  let changes = 0
  const watcher = await GitRefWatcher.start({
    workspace,
    onChange: () => changes++,
    log: (message) => logs.push(message),
    ...options,
  })
  if (watcher === null) throw new Error(`${workspace} should be watched`)
  onTestFinished(() => watcher.close())
  return {
    watcher,
    logs,
    changes: () => changes,
    changed: (count) =>
      waitFor(
        () => changes >= count,
        () => `${count} ref change(s); saw ${changes}; logs: ${JSON.stringify(logs)}`,
        { timeout: 15_000 },
      ),
  }
}

/** A repository on main with alice's worktree on team/alice, as a spawn makes it. */
function repositoryWithWorktree(): { workspace: string; alice: string } {
  const workspace = gitWorkspace()
  const alice = join(workspace, '.team-worktrees', 'alice')
  gitIn(workspace, 'worktree', 'add', '-q', '-b', 'team/alice', alice, 'HEAD')
  return { workspace, alice }
}

describe('GitRefWatcher', () => {
  it('watches nothing at all in a folder that is not a git repository', async () => {
    const { dir } = tempWorkspace()
    let watches = 0
    const watcher = await GitRefWatcher.start({
      workspace: dir,
      onChange: () => {},
      watchFolder: () => {
        watches++
        return { dispose: () => {} }
      },
    })
    expect(watcher).toBeNull()
    expect(watches).toBe(0)
  })

  it("tells of a teammate's commit and of a merge into main made by other processes", async () => {
    const { workspace, alice } = repositoryWithWorktree()
    const refs = await watchRefs(workspace)
    writeFileSync(join(alice, 'feature.txt'), 'new\n')
    await gitElsewhere(alice, 'add', '-A')
    await gitElsewhere(
      alice,
      '-c',
      'user.name=alice',
      '-c',
      'user.email=a@x',
      'commit',
      '-qm',
      'Feature',
    )
    await refs.changed(1)
    const afterCommit = refs.changes()
    await gitElsewhere(workspace, 'merge', '-q', '--no-ff', '-m', 'Merge alice', 'team/alice')
    await refs.changed(afterCommit + 1)
    expect(refs.logs).toEqual([])
  })

  it('follows a branch folder made after it started, and packed refs', async () => {
    const workspace = gitWorkspace()
    const refs = await watchRefs(workspace)
    const teamFolder = join(workspace, '.git', 'refs', 'heads', 'team')
    expect(refs.watcher.folders()).not.toContain(teamFolder)
    await gitElsewhere(workspace, 'branch', 'team/bob')
    await refs.changed(1)
    expect(refs.watcher.folders()).toContain(teamFolder)
    // A ref written in the new folder is seen there.
    await gitElsewhere(workspace, 'commit', '-q', '--allow-empty', '-m', 'More')
    await refs.changed(2)
    const before = refs.changes()
    await gitElsewhere(workspace, 'update-ref', 'refs/heads/team/bob', 'HEAD')
    await refs.changed(before + 1)
    // `git pack-refs` moves every loose ref into packed-refs.
    const packed = refs.changes()
    await gitElsewhere(workspace, 'pack-refs', '--all')
    await refs.changed(packed + 1)
  })

  it('a repository removed says so and is followed again once it is made anew', async () => {
    const workspace = gitWorkspace()
    const refs = await watchRefs(workspace)
    rmSync(join(workspace, '.git'), { recursive: true, force: true })
    await refs.changed(1)
    await waitFor(
      () => refs.logs.some((line) => line.includes('is no longer in a git repository')),
      () => `the log line; got ${JSON.stringify(refs.logs)}`,
      { timeout: 15_000 },
    )
    const before = refs.changes()
    gitIn(workspace, 'init', '-q', '-b', 'main')
    await refs.changed(before + 1)
    const made = refs.changes()
    await gitElsewhere(
      workspace,
      '-c',
      'user.name=P',
      '-c',
      'user.email=p@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'Again',
    )
    await refs.changed(made + 1)
    expect(refs.logs.some((line) => line.includes('in a git repository again'))).toBe(true)
  })

  it('a .git replaced by another repository is watched in its place', async () => {
    const workspace = gitWorkspace()
    const other = gitWorkspace({ 'other.txt': 'other\n' })
    const refs = await watchRefs(workspace)
    renameSync(join(workspace, '.git'), join(workspace, '.git-old'))
    renameSync(join(other, '.git'), join(workspace, '.git'))
    await refs.changed(1)
    const replaced = refs.changes()
    await gitElsewhere(workspace, 'branch', 'team/carol')
    await refs.changed(replaced + 1)
  })

  it('a watch the system refuses (too many watched files) is told, and the rest still works', async () => {
    const workspace = gitWorkspace()
    const heads = join(workspace, '.git', 'refs', 'heads')
    const refuse: WatchFolder = (folder, onName, onError) => {
      if (folder === heads)
        throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
          code: 'ENOSPC',
        })
      return nodeWatch(folder, onName, onError)
    }
    const refs = await watchRefs(workspace, { watchFolder: refuse })
    expect(refs.logs).toHaveLength(1)
    expect(refs.logs[0]).toContain(heads)
    expect(refs.logs[0]).toContain('fs.inotify.max_user_watches')
    // HEAD is watched elsewhere: switching branches is still seen.
    await gitElsewhere(workspace, 'checkout', '-q', '-b', 'topic')
    await refs.changed(1)
  })

  it('a watch that fails later is told and watched again', async () => {
    const workspace = gitWorkspace()
    const heads = join(workspace, '.git', 'refs', 'heads')
    let breakHeads: ((error: Error) => void) | null = null
    const breakable: WatchFolder = (folder, onName, onError) => {
      if (folder === heads) breakHeads = onError
      return nodeWatch(folder, onName, onError)
    }
    const refs = await watchRefs(workspace, { watchFolder: breakable })
    const fail = breakHeads as ((error: Error) => void) | null
    expect(fail).not.toBeNull()
    breakHeads = null
    fail?.(new Error('EIO: the watch broke'))
    await refs.changed(1)
    expect(refs.logs.join('\n')).toContain(`the watch of ${heads} failed: EIO`)
    await waitFor(
      () => breakHeads !== null,
      () => 'the folder watched again',
    )
    const before = refs.changes()
    await gitElsewhere(workspace, 'commit', '-q', '--allow-empty', '-m', 'After the failure')
    await refs.changed(before + 1)
  })

  it('watches at most the folders of branches it is allowed, team/ first, and says so', async () => {
    const workspace = gitWorkspace()
    for (const branch of ['team/alice', 'feature/one', 'fix/two'])
      gitIn(workspace, 'branch', branch)
    mkdirSync(join(workspace, '.git', 'refs', 'heads', 'empty'))
    const refs = await watchRefs(workspace, { maxBranchFolders: 2 })
    const heads = join(workspace, '.git', 'refs', 'heads')
    const watched = refs.watcher.folders().filter((folder) => folder.startsWith(heads))
    expect(watched.sort()).toEqual([heads, join(heads, 'team')])
    expect(refs.logs).toHaveLength(1)
    expect(refs.logs[0]).toContain('more than 2 folders of branches')
  })
})
