import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
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
  /**
   * Runs `action` (which changes the repository), then waits (generously) until the watcher
   * reports a change after which the refs are as the action left them. The refs are read when
   * each report comes, so a late report of an earlier change cannot stand in for this one.
   */
  readonly tells: (action: () => unknown) => Promise<void>
}

/**
 * git's refs as files: HEAD, packed-refs, every loose ref and each linked worktree's HEAD.
 * Files, not what they name, so that packing refs (which moves them, naming the same commits)
 * is a change too.
 */
function refFiles(workspace: string): string {
  const git = join(workspace, '.git')
  try {
    if (!existsSync(git)) return '(no repository)'
    const files: [string, string][] = []
    const read = (relative: string): void => {
      const path = join(git, relative)
      if (existsSync(path) && statSync(path).isFile())
        files.push([relative, readFileSync(path, 'utf8')])
    }
    read('HEAD')
    read('packed-refs')
    for (const entry of readdirSync(join(git, 'refs'), { recursive: true, encoding: 'utf8' }))
      read(join('refs', entry))
    if (existsSync(join(git, 'worktrees')))
      for (const id of readdirSync(join(git, 'worktrees'))) read(join('worktrees', id, 'HEAD'))
    return JSON.stringify(files.sort(([a], [b]) => a.localeCompare(b)))
  } catch (error) {
    // git was writing while this read: not a state the test waits for.
    return `(unreadable: ${(error as Error).message})`
  }
}

async function watchRefs(
  workspace: string,
  options: Partial<GitRefWatcherOptions> = {},
): Promise<Watching> {
  const logs: string[] = []
  const reports: string[] = []
  const watcher = await GitRefWatcher.start({
    workspace,
    onChange: () => reports.push(refFiles(workspace)),
    log: (message) => logs.push(message),
    ...options,
  })
  if (watcher === null) throw new Error(`${workspace} should be watched`)
  onTestFinished(() => watcher.close())
  return {
    watcher,
    logs,
    tells: async (action) => {
      const mark = reports.length
      await action()
      const expected = refFiles(workspace)
      await waitFor(
        () => reports.slice(mark).includes(expected),
        () =>
          `a report with the refs as the change left them (${expected}); reports since: ${JSON.stringify(reports.slice(mark))}; logs: ${JSON.stringify(logs)}`,
        { timeout: 15_000 },
      )
    },
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
    await refs.tells(() =>
      gitElsewhere(
        alice,
        '-c',
        'user.name=alice',
        '-c',
        'user.email=a@x',
        'commit',
        '-qm',
        'Feature',
      ),
    )
    await refs.tells(() =>
      gitElsewhere(workspace, 'merge', '-q', '--no-ff', '-m', 'Merge alice', 'team/alice'),
    )
    expect(refs.logs).toEqual([])
  })

  it('follows a branch folder made after it started, and packed refs', async () => {
    const workspace = gitWorkspace()
    const refs = await watchRefs(workspace)
    const teamFolder = join(workspace, '.git', 'refs', 'heads', 'team')
    expect(refs.watcher.folders()).not.toContain(teamFolder)
    await refs.tells(() => gitElsewhere(workspace, 'branch', 'team/bob'))
    expect(refs.watcher.folders()).toContain(teamFolder)
    // A ref written in the new folder is seen there.
    await refs.tells(() => gitElsewhere(workspace, 'commit', '-q', '--allow-empty', '-m', 'More'))
    await refs.tells(() => gitElsewhere(workspace, 'update-ref', 'refs/heads/team/bob', 'HEAD'))
    // `git pack-refs` moves every loose ref into packed-refs.
    await refs.tells(() => gitElsewhere(workspace, 'pack-refs', '--all'))
  })

  it('a repository removed says so and is followed again once it is made anew', async () => {
    const workspace = gitWorkspace()
    const refs = await watchRefs(workspace)
    await refs.tells(() => rmSync(join(workspace, '.git'), { recursive: true, force: true }))
    await waitFor(
      () => refs.logs.some((line) => line.includes('is no longer in a git repository')),
      () => `the log line; got ${JSON.stringify(refs.logs)}`,
      { timeout: 15_000 },
    )
    await refs.tells(() => gitIn(workspace, 'init', '-q', '-b', 'main'))
    await refs.tells(() =>
      gitElsewhere(
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
      ),
    )
    expect(refs.logs.some((line) => line.includes('in a git repository again'))).toBe(true)
  })

  it('a .git replaced by another repository is watched in its place', async () => {
    const workspace = gitWorkspace()
    const other = gitWorkspace({ 'other.txt': 'other\n' })
    const refs = await watchRefs(workspace)
    await refs.tells(() => {
      renameSync(join(workspace, '.git'), join(workspace, '.git-old'))
      renameSync(join(other, '.git'), join(workspace, '.git'))
    })
    await refs.tells(() => gitElsewhere(workspace, 'branch', 'team/carol'))
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
    await refs.tells(() => gitElsewhere(workspace, 'checkout', '-q', '-b', 'topic'))
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
    // Nothing moved: the report is the watcher's own, after it lost the folder.
    await refs.tells(() => fail?.(new Error('EIO: the watch broke')))
    expect(refs.logs.join('\n')).toContain(`the watch of ${heads} failed: EIO`)
    await waitFor(
      () => breakHeads !== null,
      () => 'the folder watched again',
    )
    await refs.tells(() =>
      gitElsewhere(workspace, 'commit', '-q', '--allow-empty', '-m', 'After the failure'),
    )
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
