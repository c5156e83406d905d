import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../src/offline-model/script'
import { TeamError } from '../../src/shared/errors'
import { gitEnvironment } from '../../src/runtime/git/hardening'
import { defaultBashSandbox } from '../../src/runtime/tools/bash-sandbox'
import { gitIn, writeFiles } from '../helpers/git'
import { startHost } from '../helpers/host'
import { hostileRepository } from '../helpers/hostile-repository'

afterAll(() => defaultBashSandbox.close())

/**
 * Class 2 of the trust boundary: the app's own git, outside the sandbox and with the API key in
 * its process, must not run a program a repository (or an agent) planted in its configuration.
 * The repository here sets every such key; each planted program leaves a marker if it runs.
 */
describe("the app's git runs nothing a repository configures", () => {
  it('spawn, turns, a task, diffs, both merges and a removal leave no marker', async () => {
    const repository = hostileRepository()
    const { workspace } = repository
    const script = queueScript({
      alice: [
        toolCall('write_file', { path: 'src/app.txt', content: 'one\ntwo\n' }),
        toolCall('write_file', { path: 'notes.md', content: 'notes, more\n' }),
        toolCall('write_file', { path: 'src/new.txt', content: 'new\n' }),
        text('Done.'),
        toolCall('write_file', { path: 'src/later.txt', content: 'later\n' }),
        text('Done again.'),
      ],
      bob: [toolCall('write_file', { path: 'bob.txt', content: 'bob\n' }), text('Done.')],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    const task = team.host.tasks.create({ subject: 'Change the app', by: 'user' })
    expect(await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })).toContain(
      'own worktree on team/alice',
    )
    team.host.tasks.claim(task.id, 'alice')
    await team.host.whenIdle()
    team.host.tasks.update(task.id, { status: 'review' }, 'alice')
    await team.host.worktrees.settled('alice')

    for (const scope of ['branch', 'turn'] as const) {
      const diff = await team.host.worktrees.diff('alice', scope)
      expect(diff.files.map((file) => file.path)).toContain('src/app.txt')
    }
    const taskDiff = await team.host.worktrees.diff('alice', 'task', undefined, task.id)
    expect(taskDiff.files.length).toBeGreaterThan(0)
    expect((await team.host.worktrees.views()).get('alice')?.changedFiles).toBe(3)

    // A merge commit, then a second turn and a squash; then a teammate removed with its branch.
    expect((await team.host.worktrees.merge('alice', {})).outcome).toBe('merged')
    team.host.send({ to: 'alice', content: 'One more.' })
    await team.host.whenIdle()
    expect((await team.host.worktrees.merge('alice', { squash: true })).outcome).toBe('merged')
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Work.' })
    await team.host.whenIdle()
    expect(await team.host.removeTeammate('bob', 'delete')).toContain('team/bob was deleted')

    expect(readFileSync(join(workspace, 'src/later.txt'), 'utf8')).toBe('later\n')
    expect(repository.marked()).toEqual([])
  })

  it('a merge that needs the planted merge driver is refused, saying why, and runs nothing', async () => {
    const repository = hostileRepository()
    const { workspace } = repository
    const script = queueScript({
      alice: [toolCall('write_file', { path: 'src/app.txt', content: 'alice\n' }), text('Done.')],
    })
    const team = await startHost(script, { workspace })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    // The person changes the same line on main: only a merge driver could join the two.
    writeFiles(workspace, { 'src/app.txt': 'person\n' })
    gitIn(
      workspace,
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'commit.gpgSign=false',
      'commit',
      '-qam',
      'Person',
    )
    repository.clear()
    const refusal = await team.host.worktrees.merge('alice', {}).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(TeamError)
    expect((refusal as TeamError).code).toBe('unsafe-repository')
    expect((refusal as TeamError).message).toContain('merge driver evil')
    expect(readFileSync(join(workspace, 'src/app.txt'), 'utf8')).toBe('person\n')
    expect(repository.marked()).toEqual([])
  })

  it('configuration an agent could write (an include into the workspace) stops the app git', async () => {
    const repository = hostileRepository()
    const { workspace } = repository
    writeFileSync(join(workspace, 'shared.gitconfig'), '[user]\n\tname = Shared\n')
    gitIn(workspace, 'config', 'include.path', '../shared.gitconfig')
    const script = queueScript({ alice: [text('Here.')] })
    const team = await startHost(script, { workspace })
    const summary = await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    expect(summary).toContain('shared.gitconfig, which agents can write')
    expect(team.host.team.roster.find('alice')?.worktree).toBeUndefined()
    await team.host.whenIdle()
    expect(repository.marked()).toEqual([])
  })

  it("git's environment holds no key and no variable of the caller's that steers git", () => {
    const env = gitEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/person',
      ANTHROPIC_API_KEY: 'sk-secret',
      ANTHROPIC_AUTH_TOKEN: 'token',
      AWS_SECRET_ACCESS_KEY: 'aws',
      GIT_DIR: '/elsewhere',
      GIT_EXTERNAL_DIFF: '/bin/evil',
      GIT_SSH_COMMAND: 'evil',
      LD_PRELOAD: '/tmp/evil.so',
    })
    expect(env.PATH).toBe('/usr/bin')
    for (const name of [
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_AUTH_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'GIT_DIR',
      'GIT_EXTERNAL_DIFF',
      'GIT_SSH_COMMAND',
      'LD_PRELOAD',
    ])
      expect(env[name]).toBeUndefined()
    expect(env).toMatchObject({ GIT_CONFIG_NOSYSTEM: '1', GIT_NO_REPLACE_OBJECTS: '1' })
  })
})
