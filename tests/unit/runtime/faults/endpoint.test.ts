import { describe, expect, it } from 'vitest'
import { text, type Reply } from '../../../../src/offline-model/script'
import { agentScript, lastUserTexts, requestsOf } from '../../../helpers/agents'
import {
  eventsOf,
  FAST_POLICY,
  QUICK_RETRIES,
  reasonsFor,
  statusesOf,
  statusOf,
  waitCausesOf,
  waitForStatus,
} from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const finalText = 'The complete answer, streamed in many small pieces to the end.'
const overloaded: Reply = {
  fault: 'http',
  status: 529,
  errorType: 'overloaded_error',
  message: 'Overloaded right now',
}

function assistantTexts(team: HostUnderTest, name: string): string[] {
  return team
    .records(name, 'assistant')
    .map((record) =>
      record.content.map((block) => (block.type === 'text' ? String(block.text) : '')).join(''),
    )
}

/** One reply per call of alice; calls past the list are unexpected. */
function aliceSays(replies: Reply[]): ReturnType<typeof agentScript> {
  return agentScript((agent, call) => (agent === 'alice' ? replies[call - 1] : undefined))
}

describe('endpoint faults', () => {
  it('429 with retry-after: waiting (rate limit), then the turn, recorded once, from 2 requests', async () => {
    const script = aliceSays([
      { fault: 'http', status: 429, errorType: 'rate_limit_error', retryAfterSeconds: 0.3 },
      text(finalText),
    ])
    // A long stall timeout: a slow start on a loaded machine must not count as a stall here.
    const team = await startHost(script, { turnPolicy: QUICK_RETRIES })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Answer.' })
    await waitFor(() => team.records('alice', 'assistant').length === 1)
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(requestsOf(team, 'alice')).toHaveLength(2)
    const [reason] = reasonsFor(team, 'alice', 'waiting')
    expect(reason).toMatch(/rate limit/)
    // The wait is the endpoint's retry-after, not the policy's 10 ms back-off.
    expect(reason).toMatch(/300 ms/)
    // A wait that goes on by itself: not a pause the person must lift.
    expect(waitCausesOf(team, 'alice')).toEqual(['retry'])
    expect(assistantTexts(team, 'alice')).toEqual([finalText])
    expect(team.records('alice', 'user')).toHaveLength(1)
    // Waiting for the retry-after is not a silent stream: never shown as stalled (a slow start
    // before the 429 may be).
    expect(statusesOf(team, 'alice').join(',')).toMatch(/^(stalled,working,)*waiting,working,idle$/)
  })

  it('529 repeatedly: exactly maxAttempts requests, then error with the API message; resume succeeds', async () => {
    const script = aliceSays([overloaded, overloaded, overloaded, text(finalText)])
    const team = await startHost(script, { turnPolicy: QUICK_RETRIES })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Answer.' })
    await waitForStatus(team, 'alice', 'error')
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')).toHaveLength(FAST_POLICY.maxAttempts)
    expect(statusesOf(team, 'alice')).toEqual(['waiting', 'working', 'waiting', 'working', 'error'])
    const errors = eventsOf(team, 'agent-error')
    expect(errors).toEqual([expect.objectContaining({ agent: 'alice', code: 'http-529' })])
    expect(errors[0]?.message).toMatch(/Overloaded right now/)
    expect(reasonsFor(team, 'alice', 'error')[0]).toMatch(/Overloaded right now/)
    expect(team.host.errors()).toEqual([
      { agent: 'alice', message: expect.stringMatching(/Overloaded right now/) },
    ])
    expect(team.records('alice', 'assistant')).toEqual([])
    expect(team.records('alice', 'user').map((record) => record.text)).toEqual(['Answer.'])

    team.host.resume('alice')
    await waitFor(
      () => team.records('alice', 'assistant').length === 1,
      () => 'the retried turn',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(4)
    expect(requests[3]?.body.messages).toHaveLength(1)
    expect(lastUserTexts(requests[3])).toEqual(['Answer.'])
    expect(assistantTexts(team, 'alice')).toEqual([finalText])
    expect(team.records('alice', 'user')).toHaveLength(1)
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  for (const fault of [
    { fault: 'stream-error', afterEvents: 5, turn: text(finalText) },
    { fault: 'drop', afterEvents: 5, turn: text(finalText) },
  ] as const) {
    it(`a ${fault.fault} mid-stream: the retried turn is recorded once, the partial one reset`, async () => {
      const script = aliceSays([fault, text(finalText)])
      const team = await startHost(script, { turnPolicy: QUICK_RETRIES })
      await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Answer.' })
      await waitFor(() => team.records('alice', 'assistant').length === 1)
      await team.host.whenIdle()
      expect(script.unexpected).toEqual([])
      expect(requestsOf(team, 'alice')).toHaveLength(2)
      expect(team.records('alice', 'assistant')).toHaveLength(1)
      expect(assistantTexts(team, 'alice')).toEqual([finalText])
      const resets = eventsOf(team, 'stream-reset')
      expect(resets).toEqual([expect.objectContaining({ agent: 'alice' })])
      // What streamed after the reset is exactly the recorded turn.
      const at = team.events.indexOf(resets[0] as (typeof team.events)[number])
      const after = team.events
        .slice(at)
        .flatMap((event) => (event.type === 'text-delta' ? [event.text] : []))
      expect(after.join('')).toBe(finalText)
      expect(statusOf(team, 'alice')).toBe('idle')
      expect(team.host.errors()).toEqual([])
    })
  }

  it('a resume during a back-off wait does not buy an extra, uncounted attempt', async () => {
    const slow = { ...QUICK_RETRIES, baseDelayMs: 400, maxDelayMs: 400 }
    const script = aliceSays([overloaded, overloaded, overloaded, overloaded, text(finalText)])
    const team = await startHost(script, { turnPolicy: slow })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Answer.' })
    await waitForStatus(team, 'alice', 'waiting')
    team.host.resume('alice')
    await waitForStatus(team, 'alice', 'error')
    await team.host.whenIdle()
    // maxAttempts bounds the requests, whatever the person clicked meanwhile.
    expect(requestsOf(team, 'alice')).toHaveLength(slow.maxAttempts)
  })
})
