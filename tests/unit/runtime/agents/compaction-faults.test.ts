import { describe, expect, it } from 'vitest'
import { toConversation } from '../../../../src/runtime/agents/conversation'
import { validateConversation } from '../../../../src/offline-model/requests'
import { text, toolCall, type Script } from '../../../../src/offline-model/script'
import { resultText, toolResults } from '../../../helpers/agents'
import {
  isSummaryRequest,
  refusedAsTooLong,
  scriptedSummary,
  writeParts,
} from '../../../helpers/compaction'
import { statusOf } from '../../../helpers/faults'
import { startHost } from '../../../helpers/host'

/** alice reads `rounds` parts, then ends her turn; summaries are answered by the summarizer. */
function readingScript(rounds: number): Script & { unexpected: string[] } {
  const unexpected: string[] = []
  let round = 0
  const script: Script = (request, context) => {
    if (context.agent !== 'alice') {
      unexpected.push(`a call for ${context.agent ?? 'nobody'}`)
      return { fault: 'http', status: 500, message: 'unexpected', shouldRetry: false }
    }
    if (isSummaryRequest(request)) return scriptedSummary(request)
    round++
    return round <= rounds
      ? toolCall('read_file', { path: `parts/part-${round % 10}.txt` })
      : text('Done reading.')
  }
  return Object.assign(script, { unexpected })
}

describe('a window smaller than the agent believes', () => {
  it('learns it from the endpoint’s "prompt is too long", compacts harder and retries', async () => {
    const script = readingScript(20)
    // The agent does not know the model "offline-test": it plans for 200,000 tokens.
    const team = await startHost(script, { server: { contextWindow: 12_000 } })
    writeParts(team.workspace, 10, 6000, 'FACT: none')
    await team.host.spawn({ name: 'alice', role: 'reader', prompt: 'Read twenty parts.' })
    await team.host.whenIdle()

    expect(script.unexpected).toEqual([])
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.records('alice', 'status')).toEqual([])
    const refusals = team.server.requests.filter(refusedAsTooLong)
    expect(refusals).toHaveLength(1)
    const [first, ...later] = team.records('alice', 'compaction')
    expect(first).toMatchObject({ trigger: 'prompt-too-long', window: 12_000 })
    expect(first?.tokens_before).toBeGreaterThan(12_000)
    expect(first?.tokens_after).toBeLessThan(12_000 * 0.75)
    // Learned for the session: later compactions come before the window, at the threshold.
    expect(later.length).toBeGreaterThan(0)
    for (const compaction of later)
      expect(compaction).toMatchObject({ trigger: 'threshold', window: 12_000 })
    expect(team.records('alice', 'assistant').at(-1)?.content).toEqual([
      { type: 'text', text: 'Done reading.' },
    ])
  })

  it('ends in a clear error, not a loop, when nothing it can do makes the prompt fit', async () => {
    const script = readingScript(1)
    // Smaller than the system prompt and tools alone.
    const team = await startHost(script, { server: { contextWindow: 300 } })
    await team.host.spawn({ name: 'alice', role: 'reader', prompt: 'Read.' })
    await team.host.whenIdle()

    expect(statusOf(team, 'alice')).toBe('error')
    const [status] = team.records('alice', 'status')
    expect(status?.reason).toMatch(
      /^The conversation does not fit the model's context window even after compacting it 4 times \(the endpoint said: \d+ tokens > 300 maximum\)\.$/,
    )
    // Bounded: the first call and three more, whatever each one was.
    expect(team.server.requests.filter(refusedAsTooLong)).toHaveLength(4)
    // Nothing half-done was written, and what is there is still valid for the API.
    expect(team.records('alice', 'compaction')).toEqual([])
    const records = team.host.transcript('alice').records
    expect(() => validateConversation(toConversation(records))).not.toThrow()
  })
})

describe('a huge tool result', () => {
  it('is cut to a share of the window with a note before it is sent, and the transcript says so', async () => {
    const script = readingScript(1)
    const team = await startHost(script, {
      server: { contextWindow: 20_000 },
      endpoint: { contextWindow: 20_000 },
    })
    writeParts(team.workspace, 10, 45_000, 'FACT: none')
    await team.host.spawn({ name: 'alice', role: 'reader', prompt: 'Read one part.' })
    await team.host.whenIdle()

    expect(script.unexpected).toEqual([])
    expect(statusOf(team, 'alice')).toBe('idle')
    const [result] = team.records('alice', 'tool-result')
    // A quarter of the window at three characters a token.
    expect(result?.cut).toEqual({ shown: 15_000, total: 45_000 })
    expect(result?.content).toMatch(/\n\[cut: 15000 of 45000 characters shown; .+\]$/)
    const sent = team.server.requests.filter((request) => !isSummaryRequest(request.body))[1]
    expect(resultText(toolResults(sent).get(result?.tool_use_id ?? ''))).toBe(result?.content)
    expect(team.server.requests.filter(refusedAsTooLong)).toEqual([])
  })
})
