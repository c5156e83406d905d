import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import {
  agentScript,
  lastUserTexts,
  messagesOf,
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

const LONG_ANSWER = 'The first part of a long answer, which goes on and on for a while.'
// Three deltas of 12 characters, then silence: the stop comes in the middle of the answer.
const STALL_IN_ANSWER: Reply = {
  fault: 'stall',
  afterEvents: 6,
  milliseconds: 5000,
  turn: { content: [{ type: 'text', text: LONG_ANSWER }], usage: { input_tokens: 321 } },
}

function usageOf(team: HostUnderTest, name: string) {
  const member = team.host.roster().members.find((entry) => entry.name === name)
  return { usage: member?.usage, rounds: member?.rounds }
}

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
  // What acts on the stop (task automation gives the task back) reads the cause, not the words.
  expect(
    eventsOf(team, 'agent-status-changed').some(
      (event) => event.name === name && event.status === 'idle' && event.cause === 'stopped',
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
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'A long answer, please.' })
    await streaming(team, 'alice')
    team.host.stop('alice')
    await waitForStatusRecord(team, 'alice', 'idle')
    expectStopped(team, 'alice')
    // What streamed is kept, marked interrupted (the default turn's first delta).
    expect(team.records('alice', 'assistant').map((record) => record.stop_reason)).toEqual([
      'interrupted',
    ])

    team.host.resume('alice')
    await waitFor(() => team.records('alice', 'assistant').length === 2)
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(2)
    expect(requests.every((request) => !('error' in request.reply))).toBe(true)
    // The stopped turn is asked for again: it is not sent back as a prefill.
    expect(messagesOf(requests[1]).map((message) => message.role)).toEqual(['user'])
    expect(lastUserTexts(requests[1])).toEqual(['A long answer, please.'])
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('mid-stream: the partial reply is kept as an interrupted turn and its tokens are counted', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice'
        ? call === 1
          ? STALL_IN_ANSWER
          : call === 2
            ? text('Noted, I will stop there.')
            : undefined
        : undefined,
    )
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'A long answer, please.' })
    await waitFor(
      () =>
        eventsOf(team, 'text-delta')
          .filter((event) => event.agent === 'alice')
          .map((event) => event.text)
          .join('').length === 36,
      () => "alice's three deltas",
    )
    team.host.stop('alice')
    await waitForStatusRecord(team, 'alice', 'idle')
    expectStopped(team, 'alice')

    const [partial] = team.records('alice', 'assistant')
    expect(partial?.stop_reason).toBe('interrupted')
    expect(partial?.content).toEqual([{ type: 'text', text: LONG_ANSWER.slice(0, 36) }])
    // Input from message_start; output estimated from the text (message_delta never came).
    expect(partial?.usage).toMatchObject({ input_tokens: 321, output_tokens: 9 })
    expect(partial?.usage_estimated).toBe(true)
    expect(usageOf(team, 'alice')).toEqual({
      usage: expect.objectContaining({ input_tokens: 321, output_tokens: 9 }),
      rounds: 1,
    })
    expect(
      eventsOf(team, 'usage-reported').filter((event) => event.agent === 'alice'),
    ).toHaveLength(1)

    // A message after the stop: the partial goes back as the assistant's turn, and the
    // server (which checks conversations as the API does) takes it.
    team.host.send({ to: 'alice', content: 'That is enough, thanks.' })
    await waitFor(() => team.records('alice', 'assistant').length === 2)
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(2)
    expect(requests.every((request) => !('error' in request.reply))).toBe(true)
    const messages = messagesOf(requests[1])
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(messages[1]?.content).toEqual([{ type: 'text', text: LONG_ANSWER.slice(0, 36) }])

    // The spend survives a restart: it is in the transcript.
    const again = await team.restart()
    expect(usageOf(again, 'alice').rounds).toBe(2)
    expect(usageOf(again, 'alice').usage?.input_tokens).toBeGreaterThanOrEqual(321)
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
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Sleep a while.' })
    // The first command of a process starts the OS sandbox's proxies first: slow when loaded.
    await waitFor(
      () => findProcess(marker) !== null,
      () => 'the bash command to start',
      { timeout: 20_000 },
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
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Talk slowly.' })
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
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Hi.' })
    await team.host.whenIdle()
    await team.host.close()
    const result = await cli(['stop', 'alice', '--workspace', team.workspace])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/No team is running in/)
    expect(existsSync(join(team.workspace, '.team', 'control.jsonl'))).toBe(false)
  })
})
