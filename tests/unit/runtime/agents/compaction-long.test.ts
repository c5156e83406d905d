import { describe, expect, it } from 'vitest'
import { toConversation } from '../../../../src/runtime/agents/conversation'
import { validateConversation } from '../../../../src/offline-model/requests'
import { text, toolCall, type Script } from '../../../../src/offline-model/script'
import { lastUserTexts, messagesOf, type RequestBlock } from '../../../helpers/agents'
import {
  factsIn,
  isSummaryRequest,
  refusedAsTooLong,
  scriptedSummary,
  writeParts,
} from '../../../helpers/compaction'
import { statusOf } from '../../../helpers/faults'
import { startHost } from '../../../helpers/host'

const ROUNDS = 300
const WINDOW = 20_000
const FACT = 'FACT: the deploy key is K-99'
const QUESTION = 'QUESTION: what is the deploy key?'

/**
 * alice reads a part of about 4,000 characters a round, 300 rounds, the fact once (round 3);
 * then answers the question from whatever her request holds.
 */
function readerScript(): Script & { unexpected: string[] } {
  const unexpected: string[] = []
  let rounds = 0
  const script: Script = (request, context) => {
    if (context.agent !== 'alice') {
      unexpected.push(`a call for ${context.agent ?? 'nobody'}`)
      return { fault: 'http', status: 500, message: 'unexpected', shouldRetry: false }
    }
    if (isSummaryRequest(request)) return scriptedSummary(request)
    const messages = request.messages as { content: RequestBlock[] | string }[]
    const last = JSON.stringify(messages[messages.length - 1])
    if (last.includes('QUESTION')) {
      const known = factsIn(request).find((fact) => fact.includes('deploy key'))
      return text(known ? `The deploy key is ${known.split(' ').pop() ?? ''}.` : 'I do not know.')
    }
    rounds++
    if (rounds === 3) return toolCall('read_file', { path: 'parts/fact.txt' })
    if (rounds <= ROUNDS) return toolCall('read_file', { path: `parts/part-${rounds % 10}.txt` })
    return text('I have read every part.')
  }
  return Object.assign(script, { unexpected })
}

describe('a long session in a small window', () => {
  it(`runs ${ROUNDS} rounds of large tool results in a ${WINDOW}-token window, compacting, and keeps its identity, task and facts`, async () => {
    const script = readerScript()
    const team = await startHost(script, {
      roundCap: ROUNDS + 10,
      server: { contextWindow: WINDOW },
      endpoint: { contextWindow: WINDOW },
    })
    writeParts(team.workspace, 10, 4000, FACT)
    await team.host.spawn({
      name: 'alice',
      role: 'reader',
      prompt: 'Read the parts one by one and remember every FACT you find.',
    })
    await team.host.whenIdle()

    expect(script.unexpected).toEqual([])
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.records('alice', 'status')).toEqual([])
    expect(team.server.requests.filter(refusedAsTooLong)).toEqual([])
    expect(team.records('alice', 'tool-result')).toHaveLength(ROUNDS)

    const compactions = team.records('alice', 'compaction')
    expect(compactions.length).toBeGreaterThanOrEqual(10)
    for (const compaction of compactions) {
      expect(compaction.tokens_before).toBeGreaterThan(WINDOW * 0.75)
      expect(compaction.tokens_after).toBeLessThan(compaction.tokens_before)
      expect(compaction.window).toBe(WINDOW)
    }
    // No call the agent made went past the threshold: it compacted before each one that would.
    const work = team.server.requests.filter((request) => !isSummaryRequest(request.body))
    expect(work).toHaveLength(ROUNDS + 1)
    // The agent's own calls carry cache marks; a summary call, sent once, carries none (a cache
    // write nothing reads would cost 1.25 times plain input).
    const summaries = team.server.requests.filter((request) => isSummaryRequest(request.body))
    expect(summaries.length).toBeGreaterThanOrEqual(compactions.length)
    for (const request of summaries)
      expect(JSON.stringify(request.body)).not.toContain('cache_control')
    expect(JSON.stringify(work.at(-1)?.body)).toContain('cache_control')
    expect(team.server.countTokensCalls).toBeGreaterThan(0)

    team.host.send({ from: 'lead', to: 'alice', content: QUESTION })
    await team.host.whenIdle()
    const answer = team.records('alice', 'assistant').at(-1)
    expect(answer?.content).toEqual([{ type: 'text', text: 'The deploy key is K-99.' }])

    // The question's request: the identity block and the summary carrying the fact come first;
    // the file that held the fact was read 297 rounds earlier and is no longer there verbatim.
    const asked = team.server.requests.at(-1)
    expect(asked && isSummaryRequest(asked.body)).toBe(false)
    const [opening] = messagesOf(asked)
    const [identity, summary] = opening?.content as RequestBlock[]
    expect(identity?.text).toContain(`You are 'alice', role: reader, in the team "default".`)
    expect(identity?.text).toContain(
      'given by lead:\n<task>\nRead the parts one by one and remember every FACT you find.',
    )
    expect(summary?.text).toMatch(/^<summary of the earlier conversation>/)
    expect(summary?.text).toContain(FACT)
    expect(JSON.stringify(asked?.body.messages).split(FACT)).toHaveLength(2)
    expect(lastUserTexts(asked).join('')).toContain(QUESTION)

    // The transcript kept everything, and its view is valid for the API.
    const records = team.host.transcript('alice').records
    expect(records.filter((record) => record.kind === 'tool-result')).toHaveLength(ROUNDS)
    expect(() => validateConversation(toConversation(records))).not.toThrow()
  })
})
