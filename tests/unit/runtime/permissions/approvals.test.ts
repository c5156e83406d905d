import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import type { NeedsYouEntry } from '../../../../src/shared/needs-you'
import { agentScript, requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** A teammate `alice` in ask mode whose model makes `turns` in order. */
async function askingTeammate(turns: Reply[]): Promise<HostUnderTest> {
  const team = await startHost(
    agentScript((agent, call) => (agent === 'alice' ? turns[call - 1] : undefined)),
    { leadWakesOnMessages: false },
  )
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.', approval: 'ask' })
  return team
}

async function nextPending(team: HostUnderTest, count = 1): Promise<NeedsYouEntry> {
  await waitFor(
    () => team.host.needsYou.pending().length === count,
    () => `${count} pending entries (have ${team.host.needsYou.pending().length})`,
  )
  return team.host.needsYou.pending().at(-1) as NeedsYouEntry
}

function statusOf(team: HostUnderTest, name: string): string | undefined {
  return team.host.roster().members.find((member) => member.name === name)?.status
}

describe('ask mode', () => {
  it('waits for the person with the exact command; approve runs it once', async () => {
    const team = await askingTeammate([
      toolCall('bash', { command: 'echo ran >> out.txt' }, 'tu_1'),
      toolCall('bash', { command: 'echo ran >> out.txt' }, 'tu_2'),
      text('Done.'),
    ])
    const entry = await nextPending(team)
    expect(entry).toMatchObject({
      agent: 'alice',
      kind: 'tool',
      tool: 'bash',
      detail: 'echo ran >> out.txt',
      summary: 'bash: echo ran >> out.txt',
    })
    expect(statusOf(team, 'alice')).toBe('waiting-for-you')
    expect(existsSync(join(team.workspace, 'out.txt'))).toBe(false)
    expect(requestsOf(team, 'alice')).toHaveLength(1)

    expect(team.host.answerNeedsYou({ id: entry.id, decision: 'approve' }).status).toBe('approved')
    // Approved once: the same command asks again.
    const second = await nextPending(team)
    expect(second.id).not.toBe(entry.id)
    expect(readFileSync(join(team.workspace, 'out.txt'), 'utf8')).toBe('ran\n')
    team.host.answerNeedsYou({ id: second.id, decision: 'approve' })
    await team.host.whenIdle()
    expect(readFileSync(join(team.workspace, 'out.txt'), 'utf8')).toBe('ran\nran\n')
    const results = toolResults(requestsOf(team, 'alice')[2])
    expect(results.get('tu_2')?.is_error).toBe(false)
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(() => team.host.answerNeedsYou({ id: entry.id, decision: 'approve' })).toThrow(
      /already approved/,
    )
  })

  it('deny returns the reason to the model as is_error and runs nothing', async () => {
    const team = await askingTeammate([
      toolCall('bash', { command: 'rm -rf build' }, 'tu_rm'),
      text('Understood.'),
    ])
    const entry = await nextPending(team)
    team.host.answerNeedsYou({ id: entry.id, decision: 'deny', text: 'keep the build folder' })
    await team.host.whenIdle()
    const result = toolResults(requestsOf(team, 'alice')[1]).get('tu_rm')
    expect(result?.is_error).toBe(true)
    expect(resultText(result)).toBe('The person denied this call: keep the build folder')
    expect(team.host.needsYou.entries()[0]).toMatchObject({
      status: 'denied',
      answer: 'keep the build folder',
    })
  })

  it('approve always applies to this agent and this command pattern only', async () => {
    const team = await askingTeammate([
      toolCall('bash', { command: 'ls -a' }, 'tu_a'),
      toolCall('bash', { command: 'ls -l' }, 'tu_b'),
      toolCall('bash', { command: 'ls; touch pwned' }, 'tu_c'),
      toolCall('bash', { command: 'pwd' }, 'tu_d'),
      text('Done.'),
    ])
    const first = await nextPending(team)
    expect(first.pattern).toBe('ls')
    team.host.answerNeedsYou({ id: first.id, decision: 'approve-always' })
    // `ls -l` matches and runs without asking; `ls; touch pwned` chains a second command.
    const chained = await nextPending(team)
    expect(chained.detail).toBe('ls; touch pwned')
    expect(toolResults(requestsOf(team, 'alice')[2]).get('tu_b')?.is_error).toBe(false)
    team.host.answerNeedsYou({ id: chained.id, decision: 'deny', text: 'no' })
    const other = await nextPending(team)
    expect(other.detail).toBe('pwd')
    team.host.answerNeedsYou({ id: other.id, decision: 'deny', text: 'no' })
    await team.host.whenIdle()
    expect(existsSync(join(team.workspace, 'pwned'))).toBe(false)
    const rules = JSON.parse(readFileSync(join(team.workspace, '.team', 'needs-you.json'), 'utf8'))
      .rules as unknown[]
    expect(rules).toEqual([
      expect.objectContaining({ agent: 'alice', tool: 'bash', pattern: 'ls' }),
    ])
  })

  it('a write waits with its diff, and runs once approved', async () => {
    const team = await askingTeammate([
      toolCall('write_file', { path: 'src/a.txt', content: 'new line\n' }, 'tu_w'),
      text('Written.'),
    ])
    const entry = await nextPending(team)
    expect(entry.summary).toBe('write_file: src/a.txt')
    expect(entry.detail).toContain('+new line')
    expect(entry.pattern).toBe('src/**')
    team.host.answerNeedsYou({ id: entry.id, decision: 'approve' })
    await team.host.whenIdle()
    expect(readFileSync(join(team.workspace, 'src', 'a.txt'), 'utf8')).toBe('new line\n')
  })

  it('stopping an agent while it waits ends the wait: nothing runs, nothing hangs', async () => {
    const team = await askingTeammate([toolCall('bash', { command: 'echo x > y' }, 'tu_s')])
    const entry = await nextPending(team)
    team.host.stop('alice')
    await team.host.whenIdle()
    expect(team.host.needsYou.entries().find((one) => one.id === entry.id)?.status).toBe(
      'cancelled',
    )
    const result = team.records('alice', 'tool-result')[0]
    expect(result?.is_error).toBe(true)
    expect(result?.content).toMatch(/Not run: the agent was stopped/)
    expect(existsSync(join(team.workspace, 'y'))).toBe(false)
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('ask_user waits for the answer, which comes back as the tool result', async () => {
    const team = await startHost(
      agentScript((agent, call) =>
        agent === 'bob'
          ? [toolCall('ask_user', { question: 'Which port?' }, 'tu_q'), text('Thanks.')][call - 1]
          : undefined,
      ),
      { leadWakesOnMessages: false },
    )
    await team.host.spawn({ name: 'bob', role: 'ops', prompt: 'Deploy.' })
    const entry = await nextPending(team)
    expect(entry).toMatchObject({ kind: 'question', detail: 'Which port?' })
    expect(() => team.host.answerNeedsYou({ id: entry.id, decision: 'approve' })).toThrow(
      /takes answer, deny/,
    )
    team.host.answerNeedsYou({ id: entry.id, decision: 'answer', text: '8080' })
    await team.host.whenIdle()
    const result = toolResults(requestsOf(team, 'bob')[1]).get('tu_q')
    expect(result?.is_error).toBe(false)
    expect(resultText(result)).toBe('8080')
  })
})
