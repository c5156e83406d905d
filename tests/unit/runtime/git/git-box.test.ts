import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Git } from '../../../../src/runtime/git/git'
import { boxAvailable, runsUnboxed, writablePlaces } from '../../../../src/runtime/git/git-box'
import { gitIn } from '../../../helpers/git'
import { tempFolder } from '../../../helpers/sandbox'

const boxSkip = boxAvailable() ? null : 'bubblewrap cannot run here'
if (boxSkip !== null) console.info(`[skipped] the git box's own calls: ${boxSkip}`)

describe("the app's git box", () => {
  it('boxes every call but known readings and worktree move', () => {
    expect(runsUnboxed(['rev-parse', 'HEAD'])).toBe(true)
    expect(runsUnboxed(['-c', 'core.quotepath=false', 'diff', '--name-only'])).toBe(true)
    expect(runsUnboxed(['worktree', 'list', '--porcelain'])).toBe(true)
    expect(runsUnboxed(['config', '--get', 'user.name'])).toBe(true)
    expect(runsUnboxed(['config', 'user.name'])).toBe(true)
    expect(runsUnboxed(['config', 'user.name', 'someone'])).toBe(false)
    for (const args of [
      ['-c', 'core.quotepath=false', 'add', '-A'],
      ['write-tree'],
      ['commit-tree', 'abc'],
      ['update-ref', '--stdin'],
      ['worktree', 'add', '/x/y'],
      ['hash-object', '-w', '--stdin'],
      ['some-new-command'],
    ])
      expect(runsUnboxed(args)).toBe(false)
  })

  it("makes writable the git folders, the work tree, the index's folder and a worktree's parent", () => {
    const root = realpathSync(tempFolder('agent-teams-box-'))
    for (const folder of ['git', 'work', 'data', 'trees']) mkdirSync(join(root, folder))
    const places = writablePlaces({
      folders: { common: join(root, 'git'), own: join(root, 'git') },
      workTree: join(root, 'work'),
      args: ['worktree', 'add', join(root, 'trees', 'alice'), 'main'],
      env: { GIT_INDEX_FILE: join(root, 'data', 'index') },
    })
    expect(places).toEqual(['data', 'git', 'trees', 'work'].map((name) => join(root, name)))
  })

  it.skipIf(boxSkip !== null)(
    'git init, add and commit in a folder that is no repository yet',
    async () => {
      const folder = tempFolder('agent-teams-box-init-')
      writeFileSync(join(folder, 'a.txt'), 'a')
      const git = new Git({ agentWritable: [folder], log: () => undefined })
      await git.output(folder, ['init', '-q', '-b', 'main'])
      await git.output(folder, ['add', 'a.txt'])
      await git.output(folder, ['commit', '-qm', 'a'], {
        env: await git.committerEnvironment(folder),
      })
      expect(gitIn(folder, 'show', 'HEAD:a.txt')).toBe('a')
    },
  )
})
