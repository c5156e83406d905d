import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../src/offline-model/script'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../src/runtime/team/paths'
import type { NeedsYouEntry } from '../../../src/shared/needs-you'
import { agentScript, requestsOf, resultText, toolResults } from '../../helpers/agents'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'

describe('answering the Needs-you queue from the CLI', () => {
  it('queue lists newest first by agent; deny, answer and approve --always reach the running team', async () => {
    const aliceTurns: Reply[] = [
      toolCall('bash', { command: 'git push --force' }, 'tu_push'),
      toolCall('bash', { command: 'echo status' }, 'tu_status'),
      toolCall('bash', { command: 'echo status --short' }, 'tu_short'),
      text('Done.'),
    ]
    const bobTurns: Reply[] = [
      toolCall('ask_user', { question: 'Which branch?' }, 'tu_q'),
      text('Ok.'),
    ]
    const team = await startHost(
      agentScript((agent, call) =>
        agent === 'alice' ? aliceTurns[call - 1] : agent === 'bob' ? bobTurns[call - 1] : undefined,
      ),
      { leadWakesOnMessages: false },
    )
    const ws = ['--workspace', team.workspace]
    const spawned = await cli([
      'spawn',
      'alice',
      'Ship it.',
      '--role',
      'coder',
      '--profile',
      'tester',
      '--approval',
      'ask',
      ...ws,
    ])
    expect(spawned.stderr).toBe('')
    expect(spawned.code).toBe(0)
    const pending = (): NeedsYouEntry[] => team.host.needsYou.pending()
    await waitFor(
      () => pending().length === 1,
      () => 'alice asks',
    )
    await team.host.spawn({ name: 'bob', role: 'ops', prompt: 'Ask.' })
    await waitFor(
      () => pending().length === 2,
      () => 'bob asks',
    )

    const listed = await cli(['queue', ...ws])
    expect(listed.code).toBe(0)
    // bob asked last: his group comes first.
    expect(listed.lines[0]).toBe('bob:')
    expect(listed.stdout).toMatch(
      /alice:\n {2}ny-\S+ tool .*: bash: git push --force\n {6}git push --force/,
    )
    const byAgent = (agent: string) =>
      pending().find((entry) => entry.agent === agent) as NeedsYouEntry

    const noReason = await cli(['deny', byAgent('alice').id, ...ws])
    expect(noReason.code).toBe(2)
    expect(noReason.stderr).toMatch(/needs --reason/)
    const unknown = await cli(['approve', 'ny-nope', ...ws])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/There is no entry ny-nope/)

    const denied = await cli(['deny', byAgent('alice').id, '--reason', 'never force-push', ...ws])
    expect(denied.stderr).toBe('')
    expect(denied.stdout).toMatch(/denied/)
    await waitFor(
      () => pending().some((entry) => entry.detail === 'echo status'),
      () => 'next ask',
    )
    const always = await cli(['approve', byAgent('alice').id, '--always', ...ws])
    expect(always.code).toBe(0)

    const answered = await cli(['answer', byAgent('bob').id, '--text', 'main', ...ws])
    expect(answered.code).toBe(0)
    await team.host.whenIdle()

    const aliceRequests = requestsOf(team, 'alice')
    expect(resultText(toolResults(aliceRequests[1]).get('tu_push'))).toBe(
      'The person denied this call: never force-push',
    )
    // `echo status --short` rode on the rule for `echo status`.
    expect(toolResults(aliceRequests[3]).get('tu_short')?.is_error).toBe(false)
    expect(resultText(toolResults(requestsOf(team, 'bob')[1]).get('tu_q'))).toBe('main')
    expect(pending()).toEqual([])
    expect((await cli(['queue', ...ws])).stdout).toBe('Nothing needs you.\n')
  })

  it('profile shows and changes an agent’s permissions; profiles lists them', async () => {
    const team = await startHost(
      agentScript((agent, call) => (agent === 'rita' && call === 1 ? text('Ok.') : undefined)),
      { leadWakesOnMessages: false },
    )
    const ws = ['--workspace', team.workspace]
    await team.host.spawn({ name: 'rita', role: 'reviewer', prompt: 'Look.', profile: 'reviewer' })
    await team.host.whenIdle()
    const shown = await cli(['profile', 'rita', ...ws])
    expect(shown.stdout).toBe(
      'rita: profile reviewer (read_file, grep, glob, send_message, ask_user), approvals auto.\n',
    )
    const changed = await cli([
      'profile',
      'rita',
      '--profile',
      'tester',
      '--approval',
      'ask',
      '--json',
      ...ws,
    ])
    expect(changed.stderr).toBe('')
    expect(JSON.parse(changed.stdout)).toEqual({ name: 'rita', profile: 'tester', approval: 'ask' })
    const member = Roster.read(new TeamPaths(team.workspace)).members[0]
    expect(member).toMatchObject({ profile: 'tester', approval: 'ask' })
    const bad = await cli(['profile', 'rita', '--approval', 'sometimes', ...ws])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/Invalid approval mode "sometimes": use auto, ask, plan-first/)
    const missing = await cli(['profile', 'rita', '--profile', 'ghost', ...ws])
    expect(missing.stderr).toMatch(/There is no profile "ghost"/)
    const listed = await cli(['profiles', ...ws])
    expect(listed.lines.map((line) => line.split(':')[0])).toEqual([
      'reviewer',
      'tester',
      'implementer',
      'lead',
    ])
    expect(existsSync(join(team.workspace, '.team', 'profiles.json'))).toBe(false)
    expect(readFileSync(join(team.workspace, '.team', 'config.json'), 'utf8')).toContain(
      '"approval": "ask"',
    )
  })
})
