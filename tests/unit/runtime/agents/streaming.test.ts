import { describe, expect, it } from 'vitest'
import type { TeamEvent } from '../../../../src/shared/events'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { queueScript, text } from '../../../../src/offline-model/script'
import { startHost } from '../../../helpers/host'

type Assistant = Extract<TranscriptRecord, { kind: 'assistant' }>

/** The text deltas of `agent`, one list per model turn (a turn ends with its assistant record). */
function textDeltasByTurn(events: TeamEvent[], agent: string): string[][] {
  const turns: string[][] = [[]]
  for (const event of events) {
    if (event.type === 'text-delta' && event.agent === agent)
      turns[turns.length - 1]?.push(event.text)
    if (
      event.type === 'transcript-appended' &&
      event.agent === agent &&
      event.record.kind === 'assistant'
    )
      turns.push([])
  }
  return turns.slice(0, -1)
}

function textOf(record: Assistant | undefined): string {
  return (record?.content ?? [])
    .map((block) => (block.type === 'text' ? (block as { text: string }).text : ''))
    .join('')
}

const firstText = 'Let me check the workspace before I answer you properly.'
const finalText = 'All checked: the workspace holds what you expected, nothing more.'
const command = 'echo streamed-tool-input && echo second-part'

describe('streaming: deltas add up to the final message', () => {
  it('text and tool input arrive in pieces that add up; tool events are ordered; usage totals add up', async () => {
    const script = queueScript({
      lead: [
        {
          content: [
            { type: 'text', text: firstText },
            { type: 'tool_use', id: 'tu_bash', name: 'bash', input: { command } },
          ],
          usage: { input_tokens: 100, output_tokens: 7 },
        },
        { ...text(finalText), usage: { input_tokens: 150, output_tokens: 11 } },
      ],
    })
    const team = await startHost(script, { server: { chunkCharacters: 5 } })
    team.host.chat('Check the workspace.')
    await team.host.whenIdle()
    script.assertConsumed()

    const assistants = team.records('lead', 'assistant')
    expect(assistants).toHaveLength(2)
    const turns = textDeltasByTurn(team.events, 'lead')
    expect(turns).toHaveLength(2)
    turns.forEach((deltas, index) => {
      expect(deltas.length, `turn ${index + 1}`).toBeGreaterThan(1)
      expect(deltas.join(''), `turn ${index + 1}`).toBe(textOf(assistants[index]))
    })
    expect(turns[0]?.join('')).toBe(firstText)
    expect(turns[1]?.join('')).toBe(finalText)

    // Tool input: partial JSON that parses, once joined, to the recorded tool_use input.
    const inputDeltas = team.events.flatMap((event) =>
      event.type === 'tool-input-delta' && event.id === 'tu_bash' ? [event.partial_json] : [],
    )
    expect(inputDeltas.length).toBeGreaterThan(1)
    const toolUse = assistants[0]?.content.find((block) => block.type === 'tool_use')
    expect(toolUse).toMatchObject({ id: 'tu_bash', name: 'bash', input: { command } })
    expect(JSON.parse(inputDeltas.join(''))).toEqual((toolUse as { input: unknown }).input)

    // started, then its input, then the recorded turn, then finished with the real output.
    const at = (match: (event: TeamEvent) => boolean): number => team.events.findIndex(match)
    const started = at((event) => event.type === 'tool-call-started' && event.id === 'tu_bash')
    const firstInput = at((event) => event.type === 'tool-input-delta' && event.id === 'tu_bash')
    const recorded = at(
      (event) =>
        event.type === 'transcript-appended' &&
        event.record.kind === 'assistant' &&
        event.record.content.some((block) => (block as { id?: string }).id === 'tu_bash'),
    )
    const finished = at((event) => event.type === 'tool-call-finished' && event.id === 'tu_bash')
    expect(started).toBeGreaterThanOrEqual(0)
    expect(started).toBeLessThan(firstInput)
    expect(firstInput).toBeLessThan(recorded)
    expect(recorded).toBeLessThan(finished)
    const finishedEvent = team.events[finished]
    expect(finishedEvent).toMatchObject({ name: 'bash', is_error: false, agent: 'lead' })
    expect(finishedEvent?.type === 'tool-call-finished' && finishedEvent.content).toContain(
      'second-part',
    )
    expect(
      team.events.filter((event) => event.type === 'tool-call-started' && event.agent === 'lead'),
    ).toHaveLength(1)

    // Usage: each report carries the turn's usage and the running total.
    const usage = team.events.flatMap((event) =>
      event.type === 'usage-reported' && event.agent === 'lead' ? [event] : [],
    )
    // The script names the input count, so the offline server reports no cache figures.
    const noCache = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
    expect(usage.map((event) => event.usage)).toEqual([
      { input_tokens: 100, output_tokens: 7, ...noCache },
      { input_tokens: 150, output_tokens: 11, ...noCache },
    ])
    expect(usage.map((event) => event.total)).toEqual([
      { input_tokens: 100, output_tokens: 7, ...noCache },
      { input_tokens: 250, output_tokens: 18, ...noCache },
    ])
    expect(assistants.map((record) => record.usage)).toEqual(usage.map((event) => event.usage))
    expect(team.host.roster().lead.usage).toEqual({
      input_tokens: 250,
      output_tokens: 18,
      ...noCache,
    })
  })

  it("keeps two agents' concurrent streams apart", async () => {
    const aliceText = 'alice: ' + 'a-'.repeat(40)
    const bobText = 'bob: ' + 'b-'.repeat(40)
    const script = queueScript({ alice: [text(aliceText)], bob: [text(bobText)] })
    const team = await startHost(script, { server: { chunkCharacters: 5 } })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Talk.' })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Talk.' })
    await team.host.whenIdle()
    script.assertConsumed()
    for (const [name, expected] of [
      ['alice', aliceText],
      ['bob', bobText],
    ] as const) {
      const turns = textDeltasByTurn(team.events, name)
      expect(turns).toHaveLength(1)
      expect(turns[0]?.length).toBe(Math.ceil(expected.length / 5))
      expect(turns[0]?.join('')).toBe(expected)
      expect(textOf(team.records(name, 'assistant')[0])).toBe(expected)
    }
  })
})
