import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../../src/main/runtime/offline-model/script'
import {
  agentScript,
  lastUserTexts,
  requestsOf,
  resultText,
  toolResults,
} from '../../../helpers/agents'
import { cli } from '../../../helpers/cli'
import { eventsOf, processGone, statusOf, waitForStatusRecord } from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { findProcess } from '../../../helpers/proc'
import { waitFor } from '../../../helpers/wait'

// message_start, ping, content_block_start and one text delta, then silence.
const STALL = { fault: 'stall', afterEvents: 4, milliseconds: 3000 } as const

async function streaming(team: HostUnderTest, name: string): Promise<void> {
  await waitFor(
    () => eventsOf(team, 'text-delta').some((event) => event.agent === name),
    () => `${name}'s stream to begin`,
  )
}

function expectStopped(team: HostUnderTest, name: string): void {
  expect(statusOf(team, name)).toBe('idle')
  const statuses = team.records(name, 'status')
  expect(statuses.map((record) => [record.status, record.reason])).toEqual([
    ['idle', 'stopped by the person'],
  ])
  expect(
    eventsOf(team, 'agent-status-changed').some(
      (event) => event.name === name && event.status === 'idle' && event.reason === 'stopped',
    ),
  ).toBe(true)
  expect(team.host.errors()).toEqual([])
}

describe('stopping an agent', () => {
  it('mid-stream: it ends idle with a stopped record; a resume asks again with a valid transcript', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice'
        ? call === 1
          ? STALL
          : call === 2
            ? text('Done after all.')
            : undefined
        : undefined,
    )
    const team = await startHost(script)
    team.host.spawn({ name: 'alice', role: 'coder', prompt: 'A long answer, please.' })
    await streaming(team, 'alice')
    team.host.stop('alice')
    await waitForStatusRecord(team, 'alice', 'idle')
    expectStopped(team, 'alice')
    expect(team.records('alice', 'assistant')).toEqual([])

    team.host.resume('alice')
    await waitFor(() => team.records('alice', 'assistant').length === 1)
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(2)
    expect(requests.every((request) => !('error' in request.reply))).toBe(true)
    expect(lastUserTexts(requests[1])).toEqual(['A long answer, please.'])
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('mid-tool: the bash process group is killed; the call gets an is_error "stopped" result', async () => {
    // Found by command line: in bash's own PID namespace, $$ and $! are pids inside it.
    const marker = (30 + Math.random()).toFixed(9)
    const command = `sleep ${marker} & wait`
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      if (call === 1) return toolCall('bash', { command }, 'tu_sleep')
      return call === 2 ? text('Understood, I was stopped.') : undefined
    })
    const team = await startHost(script)
    team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Sleep a while.' })
    await waitFor(
      () => findProcess(marker) !== null,
      () => 'the bash command to start',
    )
    const sleepPid = findProcess(marker) ?? 0
    expect(processGone(sleepPid)).toBe(false)
    team.host.stop('alice')
    await waitForStatusRecord(team, 'alice', 'idle')
    expectStopped(team, 'alice')
    await waitFor(
      () => processGone(sleepPid) && findProcess(marker) === null,
      () => 'the process group to die',
    )

    const [result] = team.records('alice', 'tool-result')
    expect(result).toMatchObject({ tool_use_id: 'tu_sleep', is_error: true })
    expect(result?.content).toMatch(/stopped/)

    team.host.send({ to: 'alice', content: 'Why did you stop?' })
    await waitFor(() => team.records('alice', 'assistant').length === 2)
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const second = requestsOf(team, 'alice')[1]
    expect(second && 'error' in second.reply).toBe(false)
    const answered = toolResults(second).get('tu_sleep')
    expect(answered?.is_error).toBe(true)
    expect(resultText(answered)).toMatch(/stopped/)
    expect(lastUserTexts(second).join('')).toContain('Why did you stop?')
  })

  it('agent-teams stop <name> reaches the running team through the control file', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice'
        ? call === 1
          ? STALL
          : call === 2
            ? text('Resumed.')
            : undefined
        : undefined,
    )
    const team = await startHost(script)
    team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Talk slowly.' })
    await streaming(team, 'alice')
    const stopped = await cli(['stop', 'alice', '--workspace', team.workspace])
    expect(stopped.stderr).toBe('')
    expect(stopped.code).toBe(0)
    await waitForStatusRecord(team, 'alice', 'idle')
    expectStopped(team, 'alice')

    const resumed = await cli(['resume', 'alice', '--workspace', team.workspace])
    expect(resumed.code).toBe(0)
    await waitFor(
      () => team.records('alice', 'assistant').length === 1,
      () => 'the resumed turn',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(requestsOf(team, 'alice').every((request) => !('error' in request.reply))).toBe(true)
  })

  it('agent-teams stop with no team running: a clear error, exit 1', async () => {
    const team = await startHost(
      agentScript((agent) => (agent === 'alice' ? text('Hi.') : undefined)),
    )
    team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Hi.' })
    await team.host.whenIdle()
    await team.host.close()
    const result = await cli(['stop', 'alice', '--workspace', team.workspace])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/No team is running in/)
    expect(existsSync(join(team.workspace, '.team', 'control.jsonl'))).toBe(false)
  })
})
