import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import {
  conversationText,
  lastUserTexts,
  requestsOf,
  resultText,
  toolResults,
} from '../../../helpers/agents'
import { deliveredIds, startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

function fileRecords(team: HostUnderTest, name: string): Record<string, unknown>[] {
  return readFileSync(team.host.team.paths.transcript(name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('transcripts persist, and the team comes back after a restart', () => {
  it('writes versioned records to .team/transcripts/<name>.jsonl as they happen', async () => {
    // The command counts what the file holds while the tool runs: its own call is already there.
    const command =
      'grep -c \'"kind":"assistant"\' .team/transcripts/alice.jsonl; ' +
      'grep -c \'"kind":"tool-result"\' .team/transcripts/alice.jsonl || true'
    const script = queueScript({
      alice: [toolCall('bash', { command }, 'tu_count'), text('Counted.')],
      lead: [text('Thanks, alice.')],
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Count your records.' })
    await team.host.whenIdle()
    team.host.send({ from: 'alice', to: 'lead', content: 'done counting' })
    await waitFor(
      () => team.records('lead', 'assistant').length === 1,
      () => 'the lead to answer',
    )
    await team.host.whenIdle()
    script.assertConsumed()

    const counted = toolResults(requestsOf(team, 'alice')[1]).get('tu_count')
    expect(counted?.is_error).toBe(false)
    expect(resultText(counted).trim().split('\n')).toEqual(['1', '0'])

    for (const name of ['alice', 'lead']) {
      const onDisk = fileRecords(team, name)
      expect(onDisk.length, name).toBeGreaterThan(0)
      expect(
        onDisk.every((record) => record.v === 1),
        name,
      ).toBe(true)
      expect(
        onDisk.map((record) => record.seq),
        name,
      ).toEqual(onDisk.map((_, index) => index + 1))
      expect(onDisk, name).toEqual(team.host.transcript(name).records)
    }
    expect(fileRecords(team, 'alice').map((record) => record.kind)).toEqual([
      'user',
      'assistant',
      'tool-result',
      'assistant',
    ])
    const leadKinds = fileRecords(team, 'lead').map((record) => record.kind)
    expect(leadKinds).toEqual(['inbox', 'assistant'])
    const assistant = fileRecords(team, 'alice')[1]
    expect(assistant).toMatchObject({
      kind: 'assistant',
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
      content: [{ type: 'tool_use', id: 'tu_count', name: 'bash', input: { command } }],
    })
  })

  it('after a restart the lead and a teammate are back with their memory, and go on', async () => {
    const script = queueScript({
      lead: [
        toolCall('spawn_teammate', {
          name: 'alice',
          role: 'coder',
          prompt: 'Remember the code word "marmalade".',
        }),
        text('alice is on it.'),
        text('Yes, I remember: alice has the code word.'),
      ],
      alice: [text('I will remember "marmalade".'), text('The code word is "marmalade".')],
    })
    const first = await startHost(script)
    first.host.chat('Spawn alice and give her a code word.')
    await first.host.whenIdle()
    const leadBefore = first.host.transcript('lead').records
    const aliceBefore = first.host.transcript('alice').records
    const requestsBefore = first.server.requests.length

    const team = await first.restart()
    expect(team.host.transcript('lead').records).toEqual(leadBefore)
    expect(team.host.transcript('alice').records).toEqual(aliceBefore)
    expect(team.host.roster().members.map((member) => [member.name, member.role])).toEqual([
      ['alice', 'coder'],
    ])
    await team.host.whenIdle()
    // Nothing was pending, so opening again asked the model nothing.
    expect(team.server.requests).toHaveLength(requestsBefore)

    team.host.chat('Do you remember what you did?')
    await team.host.whenIdle()
    const leadRequest = requestsOf(team, 'lead')[2]
    const leadMemory = conversationText(leadRequest)
    expect(leadMemory).toContain('Spawn alice and give her a code word.')
    expect(leadMemory).toContain('alice is on it.')
    expect(leadRequest?.body.messages).toHaveLength(5)
    expect(lastUserTexts(leadRequest)).toEqual(['Do you remember what you did?'])

    team.host.send({ to: 'alice', content: 'What is the code word?' })
    await waitFor(
      () => team.records('alice', 'assistant').length === 2,
      () => 'alice to answer after the restart',
    )
    await team.host.whenIdle()
    script.assertConsumed()
    const aliceRequest = requestsOf(team, 'alice')[1]
    expect(conversationText(aliceRequest)).toContain('Remember the code word')
    expect(conversationText(aliceRequest)).toContain('I will remember')
    expect(lastUserTexts(aliceRequest).join('')).toContain('What is the code word?')
    expect(team.server.requests.every((request) => !('error' in request.reply))).toBe(true)
    expect(new Set(deliveredIds(team, 'alice')).size).toBe(deliveredIds(team, 'alice').length)
    expect(team.host.roster().members[0]?.status).toBe('idle')
  })
})
