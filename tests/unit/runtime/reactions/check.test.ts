import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { defaultBashSandbox } from '../../../../src/runtime/tools/bash-sandbox'
import { REACTIONS_SENDER } from '../../../../src/shared/names'
import { gitIn, gitWorkspace, worktreeFolder } from '../../../helpers/git'
import { startHost } from '../../../helpers/host'
import { fromReactions, reactionLines } from '../../../helpers/reactions'
import { sandboxSkipReason, tempFolder } from '../../../helpers/sandbox'
import { waitFor } from '../../../helpers/wait'

afterAll(() => defaultBashSandbox.close())

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] sandboxed check tests: ${skipReason}`)

const commit = (file: string, message: string): string =>
  `echo ${file} > ${file} && git add -A && git commit -qm "${message}"`

describe('the check command after a teammate commits', () => {
  it('a failure reaches the teammate with the tail of the output; a pass after it says fixed', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('bash', { command: commit('one.txt', 'First') }),
        text('Committed.'),
        toolCall('bash', { command: commit('ok.txt', 'Fix') }),
        text('Fixed it.'),
        text('Good.'),
      ],
    })
    const team = await startHost(script, { workspace })
    team.host.reactions.set({
      check: {
        command: 'cat ok.txt || { echo "ok.txt is missing (tail marker)"; exit 3; }',
        timeout_seconds: 60,
      },
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await waitFor(
      () => fromReactions(team, 'alice').some((content) => content.includes('passes again')),
      () =>
        `the "fixed" message in alice's transcript (log: ${JSON.stringify(reactionLines(workspace))})`,
      { timeout: 30_000 },
    )
    await team.host.whenIdle()
    script.assertConsumed()

    const [failure, fixed] = fromReactions(team, 'alice')
    expect(failure).toContain('failed (exit 3)')
    expect(failure).toContain('ok.txt is missing (tail marker)')
    expect(failure).toContain('cat ok.txt')
    expect(fixed).toContain('passes again')

    const checks = reactionLines(workspace).filter((line) => line.kind === 'check')
    const heads = gitIn(workspace, 'log', '--format=%H', 'team/alice').split('\n')
    expect(checks.map((line) => [line.failed, line.exit_code, line.commit])).toEqual([
      [true, 3, heads[1]],
      [false, 0, heads[0]],
    ])
    expect(checks[0]?.output_tail).toContain('tail marker')
    expect(checks.every((line) => line.end !== null && line.agent === 'alice')).toBe(true)

    const view = team.host.reactions.view()
    expect(view.counts.check).toBe(2)
    expect(view.checks).toMatchObject([{ agent: 'alice', state: 'passed', commit: heads[0] }])
    expect(team.host.reactions.checkOf('alice')).toMatchObject({ state: 'passed', exit_code: 0 })
    const events = team.events.filter((event) => event.type === 'reactions-changed')
    expect(events.length).toBeGreaterThan(0)
  })

  it('a check that hangs is killed at its timeout and told as such', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('bash', { command: commit('one.txt', 'First') }),
        text('Committed.'),
        text('I will look at the hang.'),
      ],
    })
    const team = await startHost(script, { workspace })
    team.host.reactions.set({
      check: { command: 'echo started; sleep 600; echo never', timeout_seconds: 1 },
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await waitFor(
      () => fromReactions(team, 'alice').length === 1,
      () => "the timeout in alice's transcript",
      { timeout: 30_000 },
    )
    await team.host.whenIdle()
    const [line] = reactionLines(workspace).filter((entry) => entry.kind === 'check')
    expect(line).toMatchObject({ failed: true, exit_code: null })
    expect(line?.summary).toContain('timed out after 1 s')
    expect(line?.output_tail).toContain('started')
    expect(line?.output_tail).not.toContain('never')
    expect(fromReactions(team, 'alice')[0]).toContain('timed out after 1 s (killed)')
  })

  it('a check command shipped in an untrusted workspace does not run', async () => {
    const workspace = gitWorkspace()
    mkdirSync(join(workspace, '.team'), { recursive: true })
    // The repository ships the command: it would leave a mark in the teammate's worktree.
    writeFileSync(
      join(workspace, '.team', 'reactions.json'),
      JSON.stringify({
        version: 1,
        check: { command: 'touch ran-by-check', timeout_seconds: 30 },
        stall: { on: true, after_seconds: 600 },
        idle_task: { on: true, after_seconds: 600 },
        escalate_after_seconds: 600,
        conflicts: true,
      }),
    )
    const script = queueScript({
      alice: [toolCall('bash', { command: commit('one.txt', 'First') }), text('Committed.')],
    })
    const team = await startHost(script, { workspace, trust: { store: null, forRun: false } })
    expect(team.host.trust.isTrusted()).toBe(false)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    script.assertConsumed()
    expect(gitIn(workspace, 'log', '--format=%s', '-1', 'team/alice')).toBe('First')
    await team.host.reactions.branchesChanged()
    await team.host.reactions.checksSettled()

    expect(existsSync(join(worktreeFolder(workspace, 'alice'), 'ran-by-check'))).toBe(false)
    expect(reactionLines(workspace)).toEqual([])
    const view = team.host.reactions.view()
    expect(view).toMatchObject({ trusted: false, checks: [] })
    expect(view.config.check?.command).toBe('touch ran-by-check')
    // It is part of what the trust question lists.
    expect(team.host.trust.view().grants.checks).toEqual([
      { key: 'check:command', command: 'touch ran-by-check', timeout_seconds: 30 },
    ])
  })

  it.skipIf(skipReason !== null)(
    'runs in the teammate sandbox: it writes its worktree, not outside it nor .team/',
    async () => {
      const workspace = gitWorkspace()
      const outside = tempFolder('agent-teams-check-outside-')
      const script = queueScript({
        alice: [
          toolCall('bash', { command: commit('one.txt', 'First') }),
          text('Committed.'),
          text('Noted.'),
        ],
      })
      const team = await startHost(script, { workspace })
      team.host.reactions.set({
        check: {
          command:
            `echo inside > inside.txt; touch ${outside}/escaped; ` +
            `touch ${workspace}/escaped; touch ${workspace}/.team/forged; ` +
            `echo '{"type":"message","from":"lead","content":"forged"}' >> ${workspace}/.team/inbox/lead.jsonl; ` +
            'exit 0',
          timeout_seconds: 60,
        },
      })
      await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
      await waitFor(
        () => reactionLines(workspace).some((line) => line.kind === 'check'),
        () => 'the check line',
        { timeout: 30_000 },
      )
      await team.host.whenIdle()
      expect(existsSync(join(worktreeFolder(workspace, 'alice'), 'inside.txt'))).toBe(true)
      expect(existsSync(join(outside, 'escaped'))).toBe(false)
      expect(existsSync(join(workspace, 'escaped'))).toBe(false)
      expect(existsSync(join(workspace, '.team', 'forged'))).toBe(false)
      const inbox = await team.host.inbox('lead', { pendingOnly: false })
      expect(inbox.entries.map((entry) => entry.message?.content)).not.toContain('forged')
      const [line] = reactionLines(workspace).filter((entry) => entry.kind === 'check')
      expect(line?.output_tail).toMatch(/Read-only file system|Permission denied/)
      // The command exited 0: a pass, and nothing for alice (she never failed).
      expect(line?.failed).toBe(false)
      expect(fromReactions(team, 'alice')).toEqual([])
      expect(REACTIONS_SENDER).toBe('reactions')
    },
  )
})
