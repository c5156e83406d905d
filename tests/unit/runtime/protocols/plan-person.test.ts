import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { agentScript, requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { cli, jsonLines } from '../../../helpers/cli'
import { rejectedLines } from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

function plans(team: HostUnderTest): [string, string][] {
  return team.host
    .protocolRequests()
    .filter((request) => request.kind === 'plan')
    .map((request) => [request.id, request.status])
}

describe('the plan-approval gate (the person)', () => {
  it('host.reviewPlan(id, true) opens the gate', async () => {
    const aliceTurns: Reply[] = [
      toolCall('submit_plan', { plan: 'Write out.txt.' }),
      text('Waiting.'),
      toolCall('write_file', { path: 'out.txt', content: 'ok\n' }, 'tu_w'),
      text('Done.'),
    ]
    const script = agentScript((agent, call) =>
      agent === 'alice' ? aliceTurns[call - 1] : agent === 'lead' ? text('Seen.') : undefined,
    )
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Plan.', planFirst: true })
    await team.host.whenIdle()
    const [[id, status] = ['', '']] = plans(team)
    expect(status).toBe('pending')

    expect(team.host.reviewPlan(id, true)).toMatch(/Approved plan/)
    await waitFor(
      () => requestsOf(team, 'alice').length === 4,
      () => 'the approved write',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(toolResults(requestsOf(team, 'alice')[3]).get('tu_w')?.is_error).toBe(false)
    expect(readFileSync(join(team.workspace, 'out.txt'), 'utf8')).toBe('ok\n')
    expect(plans(team)).toEqual([[id, 'approved']])
    // Reviewing a settled plan again is refused.
    expect(() => team.host.reviewPlan(id, false, 'Too late.')).toThrow(/already approved/)
  })

  it('agent-teams plan reject|approve and requests --json, against the running team', async () => {
    const aliceTurns: Reply[] = [
      toolCall('submit_plan', { plan: 'Plan one.' }),
      text('Waiting.'),
      toolCall('submit_plan', { plan: 'Plan two.' }),
      text('Waiting again.'),
      toolCall('write_file', { path: 'out.txt', content: 'two\n' }, 'tu_w'),
      text('Done.'),
    ]
    const script = agentScript((agent, call) =>
      agent === 'alice' ? aliceTurns[call - 1] : undefined,
    )
    const team = await startHost(script, { leadWakesOnMessages: false })
    const workspace = ['--workspace', team.workspace]
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Plan.', planFirst: true })
    await team.host.whenIdle()

    const listed = await cli(['requests', '--json', ...workspace])
    expect(listed.code).toBe(0)
    const [first] = jsonLines(listed)
    expect(first).toMatchObject({
      kind: 'plan',
      from: 'alice',
      status: 'pending',
      plan: 'Plan one.',
    })
    const firstId = String(first?.id)

    const usage = await cli(['plan', 'reject', firstId, ...workspace])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--feedback/)
    expect(plans(team)).toEqual([[firstId, 'pending']])

    const rejected = await cli([
      'plan',
      'reject',
      firstId,
      '--feedback',
      'Split it up.',
      ...workspace,
    ])
    expect(rejected.stderr).toBe('')
    expect(rejected.code).toBe(0)
    await waitFor(
      () => requestsOf(team, 'alice').length === 4,
      () => 'the second plan',
    )
    await team.host.whenIdle()
    const secondId = plans(team).find(([id]) => id !== firstId)?.[0] ?? ''
    expect(plans(team)).toEqual([
      [firstId, 'rejected'],
      [secondId, 'pending'],
    ])
    expect(team.host.protocolRequests()[0]?.reason).toBe('Split it up.')
    expect((await cli(['plan', 'approve', firstId, ...workspace])).code).toBe(1)

    const approved = await cli(['plan', 'approve', secondId, ...workspace])
    expect(approved.code).toBe(0)
    expect(approved.stdout).toContain(`Approved plan ${secondId} of alice`)
    await waitFor(
      () => requestsOf(team, 'alice').length === 6,
      () => 'the approved write',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const written = toolResults(requestsOf(team, 'alice')[5]).get('tu_w')
    expect(written?.is_error, resultText(written)).toBe(false)
    expect(existsSync(join(team.workspace, 'out.txt'))).toBe(true)

    const after = jsonLines(await cli(['requests', '--json', ...workspace]))
    expect(after.map((request) => [request.id, request.status, request.reason])).toEqual([
      [firstId, 'rejected', 'Split it up.'],
      [secondId, 'approved', expect.anything()],
    ])
  })

  it('a plan the person approved first still reaches the lead as submitted, not rejected', async () => {
    const aliceTurns: Reply[] = [toolCall('submit_plan', { plan: 'Plan.' }), text('Waiting.')]
    const script = agentScript((agent, call) =>
      agent === 'alice' ? (aliceTurns[call - 1] ?? text('Go.')) : text('Seen.'),
    )
    const team = await startHost(script, { leadWakesOnMessages: false })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Plan.', planFirst: true })
    await team.host.whenIdle()
    const [[id] = ['']] = plans(team)
    team.host.reviewPlan(id, true)
    await team.host.whenIdle()
    team.host.chat('Anything new?')
    await team.host.whenIdle()
    const submissions = team
      .records('lead', 'inbox')
      .flatMap((record) => record.messages)
      .filter((message) => message.from === 'alice')
    expect(rejectedLines(team, 'lead')).toEqual([])
    expect(submissions.map((message) => message.extra.request_id)).toEqual([id])
  })
})
