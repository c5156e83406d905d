import { appendFileSync, existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readTranscript } from '../../../../src/runtime/agents/transcript-store'
import { UsageMeter } from '../../../../src/runtime/agents/usage-meter'
import { queueScript, text } from '../../../../src/offline-model/script'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { conversationText, requestsOf } from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const mark = (seq: number) => `[[record ${seq}]]`

/** `count` records after seq `after`: task and answer pairs, one compaction among them. */
function laterRecords(after: number, count: number, compactionAt: number): TranscriptRecord[] {
  const records: TranscriptRecord[] = []
  for (let seq = after + 1; seq <= after + count; seq++) {
    const base = { v: 1 as const, seq, at: 1_700_000_000 + seq }
    if (seq === compactionAt)
      records.push({
        ...base,
        kind: 'compaction',
        through_seq: compactionAt - 40,
        identity: '<identity>You are alice.</identity>',
        summary: 'SUMMARY-MARKER of the earlier work',
        trigger: 'threshold',
        tokens_before: 9000,
        tokens_after: 800,
        window: 10_000,
        model: 'offline',
        usage: { input_tokens: 900, output_tokens: 90 },
      })
    else if ((seq - after) % 2 === 1)
      records.push({ ...base, kind: 'user', from: 'lead', text: `Task ${mark(seq)}` })
    else
      records.push({
        ...base,
        kind: 'assistant',
        message_id: `msg_${seq}`,
        model: 'offline',
        content: [{ type: 'text', text: `Done ${mark(seq)}` }],
        stop_reason: 'end_turn',
        usage: { input_tokens: seq, output_tokens: 3 },
      })
  }
  return records
}

function usageOf(team: HostUnderTest, name: string) {
  const member = team.host.roster().members.find((each) => each.name === name)
  return { rounds: member?.rounds, usage: member?.usage, byModel: member?.usageByModel }
}

function fullReadUsage(team: HostUnderTest, name: string) {
  const meter = UsageMeter.fromRecords(
    readTranscript(team.host.team.paths.transcript(name)).records,
  )
  return { rounds: meter.rounds, usage: meter.usage, byModel: meter.usageByModel }
}

describe('a team with a long transcript, restarted', () => {
  it('counts the same usage as a full read and sends the model the same conversation', async () => {
    const script = queueScript({ alice: [text('Started.'), text('The answer after the restart.')] })
    const first = await startHost(script)
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Start.' })
    await first.host.whenIdle()
    const path = first.host.team.paths.transcript('alice')
    const last = first.host.transcript('alice').total
    // A long history written straight to the file, as an earlier run would have left it.
    const later = laterRecords(last, 700, last + 600)
    appendFileSync(path, later.map((record) => `${JSON.stringify(record)}\n`).join(''))

    const team = await first.restart()
    expect(usageOf(team, 'alice')).toEqual(fullReadUsage(team, 'alice'))
    expect(team.host.transcript('alice', { fromSeq: 1, limit: 3 }).records).toEqual(
      readTranscript(path).records.slice(0, 3),
    )

    team.host.send({ to: 'alice', content: 'What now?' })
    await waitFor(
      () => requestsOf(team, 'alice').length === 2,
      () => 'alice to be asked after the restart',
    )
    await team.host.whenIdle()
    script.assertConsumed()
    const sent = conversationText(requestsOf(team, 'alice')[1])
    expect(sent).toContain('SUMMARY-MARKER')
    expect(sent).toContain(mark(last + 561))
    expect(sent).toContain(mark(last + 700))
    expect(sent).not.toContain(mark(last + 560))
    expect(sent).toContain('What now?')

    // Once more, now from the totals file the last run wrote.
    const again = await team.restart()
    expect(existsSync(path.replace(/\.jsonl$/, '.totals.json'))).toBe(true)
    expect(usageOf(again, 'alice')).toEqual(fullReadUsage(again, 'alice'))
  })
})
