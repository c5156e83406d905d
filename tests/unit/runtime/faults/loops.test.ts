import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { agentScript, requestsOf } from '../../../helpers/agents'
import { lastRecord, reasonsFor, statusOf, waitForStatus } from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const same = (id: string): Reply => toolCall('read_file', { path: 'notes.txt' }, id)
const other = (id: string): Reply => toolCall('read_file', { path: `notes-${id}.txt` }, id)

async function looping(replies: Reply[], withBob = false): Promise<HostUnderTest> {
  const script = agentScript((agent, call) =>
    agent === 'alice' ? replies[call - 1] : agent === 'bob' && call === 1 ? text('Hi.') : undefined,
  )
  const team = await startHost(script)
  writeFileSync(join(team.workspace, 'notes.txt'), 'notes\n')
  if (withBob) {
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.' })
    await team.host.whenIdle()
  }
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Read your notes.' })
  return team
}

async function expectLoopPause(team: HostUnderTest): Promise<void> {
  await waitForStatus(team, 'alice', 'waiting')
  await team.host.whenIdle()
  expect(requestsOf(team, 'alice')).toHaveLength(3)
  expect(team.records('alice', 'tool-result')).toHaveLength(3)
  expect(reasonsFor(team, 'alice', 'waiting')).toEqual([expect.stringMatching(/loop/)])
  expect(lastRecord(team, 'alice')).toMatchObject({ kind: 'status', status: 'waiting' })
}

describe('loop detection', () => {
  it('the same call with the same input three times in a row pauses the agent; resume goes on', async () => {
    const team = await looping([same('tu_1'), same('tu_2'), same('tu_3'), text('Out of the loop.')])
    await expectLoopPause(team)
    expect(reasonsFor(team, 'alice', 'waiting')[0]).toContain('read_file')

    team.host.resume('alice')
    await waitFor(
      () => requestsOf(team, 'alice').length === 4,
      () => 'the resumed call',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.records('alice', 'assistant')).toHaveLength(4)
    expect(requestsOf(team, 'alice').every((request) => !('error' in request.reply))).toBe(true)
  })

  it('three calls with different inputs do not pause it', async () => {
    const team = await looping([other('tu_1'), other('tu_2'), other('tu_3'), text('All read.')])
    await waitFor(() => requestsOf(team, 'alice').length === 4)
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(reasonsFor(team, 'alice', 'waiting')).toEqual([])
    expect(team.records('alice', 'status')).toEqual([])
  })

  it('two identical calls, one different, then two identical again do not pause it', async () => {
    const replies = [same('a'), same('b'), other('c'), same('d'), same('e'), text('Done.')]
    const team = await looping(replies)
    await waitFor(() => requestsOf(team, 'alice').length === 6)
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('a loop pause is not lifted by an unrelated budget change', async () => {
    const team = await looping([same('tu_1'), same('tu_2'), same('tu_3'), text('Out.')], true)
    await expectLoopPause(team)
    team.host.setBudget('bob', { tokens: null, rounds: 10, usd: null })
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')).toHaveLength(3)
    expect(statusOf(team, 'alice')).toBe('waiting')
  })
})
