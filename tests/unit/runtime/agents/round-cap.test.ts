import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ROUND_CAP } from '../../../../src/runtime/host/host'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import type { Reply, Script } from '../../../../src/offline-model/script'
import { agentScript, gate, lastUserTexts, requestsOf, toolResults } from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** A cheap tool call (no child process) that leaves the inbox alone. */
// A different file each time: the same call three times in a row would pause it as a loop.
const keepGoing = (id: string): Reply => toolCall('read_file', { path: `notes-${id}.txt` }, id)

async function cappedHost(script: Script, roundCap?: number): Promise<HostUnderTest> {
  const team = await startHost(script, roundCap === undefined ? {} : { roundCap })
  writeFileSync(join(team.workspace, 'notes.txt'), 'Keep going.\n')
  return team
}

describe('the round cap', () => {
  it('sends a teammate idle after roundCap model calls; a new message wakes it and it goes on', async () => {
    const script = queueScript({
      alice: [keepGoing('tu_1'), keepGoing('tu_2'), keepGoing('tu_3'), text('Finished now.')],
    })
    const team = await cappedHost(script, 3)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Loop forever.' })
    await team.host.whenIdle()

    expect(requestsOf(team, 'alice')).toHaveLength(3)
    expect(team.records('alice', 'assistant')).toHaveLength(3)
    expect(team.records('alice', 'tool-result')).toHaveLength(3)
    const capped = team.records('alice', 'status')
    expect(capped).toHaveLength(1)
    expect(capped[0]?.status).toBe('idle')
    expect(capped[0]?.reason).toMatch(/round cap of 3/)
    expect(team.host.roster().members[0]).toMatchObject({ status: 'idle', running: false })
    expect(
      team.events.some(
        (event) =>
          event.type === 'agent-status-changed' &&
          event.name === 'alice' &&
          event.status === 'idle' &&
          event.reason.includes('round cap'),
      ),
    ).toBe(true)

    team.host.send({ to: 'alice', content: 'Please wrap up.' })
    await waitFor(
      () => team.records('alice', 'inbox').length === 1,
      () => 'the message in alice transcript',
    )
    await team.host.whenIdle()
    script.assertConsumed()

    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(4)
    // The woken call answers the capped call's tool_use and carries the new message, merged.
    expect(toolResults(requests[3]).has('tu_3')).toBe(true)
    expect(lastUserTexts(requests[3]).join('')).toContain('Please wrap up.')
    expect(requests.every((request) => !('error' in request.reply))).toBe(true)
    expect(team.host.roster().members[0]?.status).toBe('idle')
    expect(team.host.errors()).toEqual([])
  })

  it('a message already read during the capped activation does not buy another one', async () => {
    const held = gate()
    let arrived = false
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      if (call === 1) {
        arrived = true
        return held.hold(keepGoing('tu_1'))
      }
      // A model that never stops: every extra call would be paid for.
      return call <= 12 ? keepGoing(`tu_${call}`) : undefined
    })
    const team = await cappedHost(script, 3)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Loop forever.' })
    await waitFor(
      () => arrived,
      () => "alice's first model request",
    )
    // Arrives mid-activation: injected before the next model call, so read there.
    team.host.send({ to: 'alice', content: 'An update while you work.' })
    held.open()
    await team.host.whenIdle()

    expect(lastUserTexts(requestsOf(team, 'alice')[1]).join('')).toContain('An update')
    // The cap holds: three model calls, then idle until a new message comes.
    expect(requestsOf(team, 'alice')).toHaveLength(3)
    expect(script.unexpected).toEqual([])
    expect(team.records('alice', 'status')).toHaveLength(1)
    expect(team.host.roster().members[0]?.status).toBe('idle')
  })

  it('a capped teammate stays idle across a restart until a message comes', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice' && call <= 12 ? keepGoing(`tu_${call}`) : undefined,
    )
    const first = await cappedHost(script, 3)
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Loop forever.' })
    await first.host.whenIdle()
    expect(requestsOf(first, 'alice')).toHaveLength(3)

    const team = await first.restart()
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')).toHaveLength(3)
    expect(team.host.roster().members[0]?.status).toBe('idle')
    expect(script.unexpected).toEqual([])
  })

  it(`defaults to ${DEFAULT_ROUND_CAP} model calls per activation`, async () => {
    expect(DEFAULT_ROUND_CAP).toBe(50)
    const script = agentScript((agent, call) =>
      agent === 'alice' && call <= 60 ? keepGoing(`tu_${call}`) : undefined,
    )
    const team = await cappedHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Loop forever.' })
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(requestsOf(team, 'alice')).toHaveLength(50)
    expect(team.records('alice', 'status').map((record) => record.reason)).toEqual([
      expect.stringMatching(/round cap of 50/),
    ])
    expect(team.host.roster().members[0]?.status).toBe('idle')
  })
})
