import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import { agentScript, requestsOf } from '../../../helpers/agents'
import {
  eventsOf,
  FAST_POLICY,
  reasonsFor,
  stalledMidStream,
  statusesOf,
  waitForStatusRecord,
} from '../../../helpers/faults'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const finalText = 'Here is the whole answer, after a long silence.'

function assistantText(team: Awaited<ReturnType<typeof startHost>>, name: string): string[] {
  return team
    .records(name, 'assistant')
    .map((record) =>
      record.content.map((block) => (block.type === 'text' ? String(block.text) : '')).join(''),
    )
}

describe('a silent model stream', () => {
  it('is marked stalled past the idle timeout, then working again when data flows', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice' && call === 1
        ? { fault: 'stall', afterEvents: 4, milliseconds: 1500, turn: text(finalText) }
        : undefined,
    )
    const team = await startHost(script, { turnPolicy: FAST_POLICY })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Think hard.' })
    await waitFor(
      () => stalledMidStream(team, 'alice'),
      () => 'alice marked stalled mid-stream',
    )
    for (const reason of reasonsFor(team, 'alice', 'stalled'))
      expect(reason).toMatch(/no data from the model/)
    await waitFor(
      () => team.records('alice', 'assistant').length === 1,
      () => 'the turn',
      {
        timeout: 5000,
      },
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    // A slow start may count as a stall of its own: every stall ends when data flows.
    expect(statusesOf(team, 'alice').join(',')).toMatch(/^(stalled,working,)+idle$/)
    expect(requestsOf(team, 'alice')).toHaveLength(1)
    expect(assistantText(team, 'alice')).toEqual([finalText])
    expect(eventsOf(team, 'stream-reset')).toEqual([])
  })

  it('host.resume while stalled abandons the attempt and retries at once; the turn is recorded once', async () => {
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      if (call === 1)
        return { fault: 'stall', afterEvents: 5, milliseconds: 5000, turn: text('Abandoned turn.') }
      return call === 2 ? text(finalText) : undefined
    })
    const team = await startHost(script, { turnPolicy: FAST_POLICY })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Think hard.' })
    await waitFor(
      () => stalledMidStream(team, 'alice'),
      () => 'alice marked stalled mid-stream',
    )
    team.host.resume('alice')
    await waitFor(
      () => team.records('alice', 'assistant').length === 1,
      () => 'the retried turn',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(requestsOf(team, 'alice')).toHaveLength(2)
    expect(assistantText(team, 'alice')).toEqual([finalText])
    expect(eventsOf(team, 'stream-reset')).toEqual([
      expect.objectContaining({ agent: 'alice', reason: expect.stringMatching(/retried/) }),
    ])
    expect(statusesOf(team, 'alice').join(',')).toMatch(/^(stalled,working,)+idle$/)
    expect(team.records('alice', 'user')).toHaveLength(1)
  })

  it('a stalled agent can be stopped', async () => {
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      if (call === 1) return { fault: 'stall', afterEvents: 4, milliseconds: 5000 }
      return call === 2 ? text(finalText) : undefined
    })
    const team = await startHost(script, { turnPolicy: FAST_POLICY })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Think hard.' })
    await waitFor(
      () => stalledMidStream(team, 'alice'),
      () => 'alice marked stalled mid-stream',
    )
    team.host.stop('alice')
    await waitForStatusRecord(team, 'alice', 'idle')
    expect(statusesOf(team, 'alice').join(',')).toMatch(/^(stalled,working,)*stalled,idle$/)
    team.host.resume('alice')
    await waitFor(
      () => team.records('alice', 'assistant').length === 2,
      () => 'the next turn',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    // The stopped turn's first delta is kept (marked interrupted), then the new turn.
    expect(team.records('alice', 'assistant').map((record) => record.stop_reason)).toEqual([
      'interrupted',
      'end_turn',
    ])
    expect(assistantText(team, 'alice')[1]).toBe(finalText)
  })
})
