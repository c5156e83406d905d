import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../src/offline-model/script'
import { defaultBashSandbox } from '../../src/runtime/tools/bash-sandbox'
import { gitIn, gitWorkspace, worktreeFolder } from '../helpers/git'
import { startHost, type HostUnderTest } from '../helpers/host'
import { sandboxSkipReason, tempFolder } from '../helpers/sandbox'

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] the sandbox policy attacks: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

const bash = (command: string) => toolCall('bash', { command })

/** `name`'s tool results, in order: what the sandbox let through and what it refused. */
function results(team: HostUnderTest, name: string): { content: string; is_error: boolean }[] {
  return team.records(name, 'tool-result').map(({ content, is_error }) => ({ content, is_error }))
}

/**
 * Class 1 of the trust boundary, with real bubblewrap: a prompt-injected agent tries to widen
 * what its commands may write through git's files, which it can reach. The policy comes from
 * the app's own records, and git's parts that steer the app or the person are read-only.
 */
describe.skipIf(skipReason !== null)('the sandbox policy comes from the app, not from .git', () => {
  it("a teammate cannot move main or another's branch, nor redirect its worktree's .git", async () => {
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const script = queueScript({
      bob: [text('Here.')],
      alice: [
        bash('echo mine > mine.txt && git add mine.txt && git commit -qm mine && echo committed'),
        bash('git update-ref refs/heads/main HEAD'),
        bash('git update-ref refs/heads/team/bob HEAD'),
        bash(`printf 'gitdir: ${victim}\\n' > .git`),
        bash('git update-ref refs/agent-teams/turn-start/alice HEAD'),
        text('Tried.'),
        bash(`touch ${victim}/planted`),
        text('Tried again.'),
      ],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.' })
    await team.host.whenIdle()
    const main = gitIn(workspace, 'rev-parse', 'main')
    const bobTip = gitIn(workspace, 'rev-parse', 'team/bob')
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    const [commit, moveMain, moveBob, redirect, moveMark] = results(team, 'alice')
    expect(commit).toMatchObject({ is_error: false, content: expect.stringContaining('committed') })
    for (const attempt of [moveMain, moveBob, redirect, moveMark])
      expect(attempt?.is_error).toBe(true)
    expect(gitIn(workspace, 'rev-parse', 'main')).toBe(main)
    expect(gitIn(workspace, 'rev-parse', 'team/bob')).toBe(bobTip)
    expect(gitIn(workspace, 'show', 'team/alice:mine.txt')).toBe('mine')

    // Even a .git file that does lead elsewhere (written by something outside the sandbox)
    // widens nothing: the policy is the app's record of the worktree it made.
    const dotGit = join(worktreeFolder(workspace, 'alice'), '.git')
    const original = readFileSync(dotGit, 'utf8')
    writeFileSync(dotGit, `gitdir: ${victim}\n`)
    try {
      team.host.send({ to: 'alice', content: 'Go on.' })
      await team.host.whenIdle()
    } finally {
      writeFileSync(dotGit, original)
    }
    script.assertConsumed()
    expect(results(team, 'alice').at(-1)?.is_error).toBe(true)
    expect(existsSync(join(victim, 'planted'))).toBe(false)
  })

  it('the lead in the workspace cannot plant git config or hooks, or replace .git', async () => {
    const workspace = gitWorkspace()
    const marker = join(tempFolder('agent-teams-marker-'), 'ran')
    const script = queueScript({
      alice: [text('Here.')],
      lead: [
        bash('echo y > y.txt && git add y.txt && git commit -qm y && echo committed'),
        bash(`git config core.fsmonitor 'touch ${marker}'`),
        bash(`printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/post-checkout`),
        bash('mv .git .git-moved && printf "gitdir: /\\n" > .git'),
        bash('git update-ref -d refs/heads/team/alice'),
        bash('mkdir -p .git/refs/agent-teams/task && git update-ref refs/agent-teams/task/x HEAD'),
        bash('printf "* filter=x\\n" >> .git/info/attributes'),
        toolCall('write_file', { path: '.git/config', content: '[core]\n\tfsmonitor = evil\n' }),
        toolCall('write_file', { path: 'sub/.git', content: 'gitdir: /\n' }),
        text('Tried.'),
      ],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    const config = readFileSync(join(workspace, '.git/config'), 'utf8')
    const aliceTip = gitIn(workspace, 'rev-parse', 'team/alice')
    team.host.chat('Go.')
    await team.host.whenIdle()
    script.assertConsumed()
    const [commit, ...attempts] = results(team, 'lead')
    expect(commit).toMatchObject({ is_error: false, content: expect.stringContaining('committed') })
    expect(attempts.map((attempt) => attempt.is_error)).toEqual(attempts.map(() => true))
    expect(readFileSync(join(workspace, '.git/config'), 'utf8')).toBe(config)
    expect(existsSync(join(workspace, '.git/hooks/post-checkout'))).toBe(false)
    expect(existsSync(join(workspace, '.git-moved'))).toBe(false)
    expect(existsSync(join(workspace, 'sub/.git'))).toBe(false)
    expect(gitIn(workspace, 'rev-parse', 'team/alice')).toBe(aliceTip)
    expect(gitIn(workspace, 'for-each-ref', 'refs/agent-teams/task')).toBe('')
    // The app's git still works there, and ran nothing.
    expect((await team.host.worktrees.views()).get('alice')?.changedFiles).toBe(0)
    expect(existsSync(marker)).toBe(false)
  })
})
