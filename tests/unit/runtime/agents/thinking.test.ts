import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { agentScript, messagesOf, refused, requestsOf } from '../../../helpers/agents'
import { cli } from '../../../helpers/cli'
import { startHost, type HostUnderTest } from '../../../helpers/host'

/** A tool-using turn that thinks (a signed thinking block, then a redacted one) before its call. */
const thinkingToolTurn: Reply = {
  ...toolCall('bash', { command: 'echo checked' }),
  thinking: 'The file may not exist yet; I should look before writing.',
  redactedThinking: true,
}

function transcriptLines(team: HostUnderTest, name: string): Record<string, unknown>[] {
  return readFileSync(join(team.workspace, '.team', 'transcripts', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('thinking blocks across tool use', () => {
  it('keeps thinking and redacted thinking with their signatures, and sends them back exactly', async () => {
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      return call === 1 ? thinkingToolTurn : text(`Done (${call}).`)
    })
    const team = await startHost(script)
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Check, then say so.',
      thinking: 2048,
    })
    await team.host.whenIdle()

    const [first, second] = requestsOf(team, 'alice')
    expect(first?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    // The follow-up after the tool ran was accepted by a server that checks signatures.
    expect(second && refused(second)).toBe(false)
    expect(script.unexpected).toEqual([])

    const [turn] = team.records('alice', 'assistant')
    const blocks = turn?.content ?? []
    expect(blocks.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use'])
    expect(blocks[0]).toEqual({
      type: 'thinking',
      thinking: 'The file may not exist yet; I should look before writing.',
      signature: expect.stringMatching(/^[A-Za-z0-9+/=]{20,}$/),
    })
    expect(blocks[1]).toEqual({ type: 'redacted_thinking', data: expect.any(String) })

    // What went back is byte for byte what came: the same blocks, in the same order.
    const sentBack = messagesOf(second)[1]
    expect(sentBack?.role).toBe('assistant')
    expect(sentBack?.content).toEqual(blocks)

    // `agent-teams transcript` shows them too, the redacted one without its data.
    const printed = await cli(['transcript', 'alice', '--workspace', team.workspace])
    expect(printed.lines).toContain(
      '#2 alice (thinking): The file may not exist yet; I should look before writing.',
    )
    expect(printed.lines).toContain('#2 alice (thinking, redacted)')

    // The transcript on disk holds them as they came, and a restart sends them back unchanged.
    const onDisk = transcriptLines(team, 'alice').find((line) => line['kind'] === 'assistant')
    expect(onDisk?.['content']).toEqual(blocks)
    const again = await team.restart()
    again.host.send({ to: 'alice', content: 'One more thing.' })
    await again.host.whenIdle()
    const third = requestsOf(again, 'alice')[2]
    expect(third && refused(third)).toBe(false)
    expect(messagesOf(third)[1]?.content).toEqual(blocks)
  })

  it.each([
    ['thinking', /Invalid `signature` in `thinking` block/],
    ['redacted_thinking', /Invalid `data` in `redacted_thinking` block/],
  ])(
    'the server refuses an altered %s block: a tampered transcript fails the next call',
    async (type, refusal) => {
      const script = agentScript((agent, call) => {
        if (agent !== 'alice') return undefined
        return call === 1 ? thinkingToolTurn : text('Done.')
      })
      const team = await startHost(script)
      await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Check.', thinking: 2048 })
      await team.host.whenIdle()
      await team.host.close()

      const path = join(team.workspace, '.team', 'transcripts', 'alice.jsonl')
      const lines = transcriptLines(team, 'alice').map((line) => {
        if (line['kind'] !== 'assistant') return line
        const content = (line['content'] as Record<string, unknown>[]).map((block) =>
          block['type'] !== type
            ? block
            : type === 'thinking'
              ? { ...block, thinking: 'I should write at once.' }
              : { ...block, data: `x${String(block['data'])}` },
        )
        return { ...line, content }
      })
      writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
      const again = await team.restart()
      again.host.send({ to: 'alice', content: 'Go on.' })
      await again.host.whenIdle()
      const last = requestsOf(again, 'alice').at(-1)
      expect(last && refused(last)).toBe(true)
      expect(again.host.errors()).toEqual([
        { agent: 'alice', message: expect.stringMatching(refusal) },
      ])
    },
  )

  it('a thinking change made inside a tool-use loop waits for the next turn', async () => {
    let team: HostUnderTest | null = null
    const script = agentScript((agent, call) => {
      if (agent !== 'alice') return undefined
      if (call === 1) {
        // Turned on while the first call is answered: the loop it starts goes on without.
        team?.host.setModel('alice', { thinking: 2048 })
        return toolCall('bash', { command: 'echo one' })
      }
      if (call === 3) {
        // Turned off while a thinking loop runs: the loop keeps thinking until it ends.
        team?.host.setModel('alice', { thinking: null })
        return thinkingToolTurn
      }
      return text(`Done (${call}).`)
    })
    team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.' })
    await team.host.whenIdle()
    team.host.send({ to: 'alice', content: 'Second.' })
    await team.host.whenIdle()
    team.host.send({ to: 'alice', content: 'Third.' })
    await team.host.whenIdle()

    const requests = requestsOf(team, 'alice')
    expect(requests.map((request) => request.body.thinking ?? null)).toEqual([
      null,
      null,
      { type: 'enabled', budget_tokens: 2048 },
      // Off, but inside the loop that began thinking: the smallest budget finishes it.
      { type: 'enabled', budget_tokens: 1024 },
      null,
    ])
    expect(requests.filter((request) => refused(request))).toEqual([])
    expect(script.unexpected).toEqual([])
  })
})
