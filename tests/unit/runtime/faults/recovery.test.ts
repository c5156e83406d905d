import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import type { NewTranscriptRecord } from '../../../../src/shared/transcript'
import {
  agentScript,
  lastUserTexts,
  requestsOf,
  resultText,
  toolResults,
} from '../../../helpers/agents'
import { eventsOf, lastRecord, statusOf } from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** What a run killed at the wrong moment leaves: records appended, alice still `working`. */
async function crashAfter(team: HostUnderTest, ...records: NewTranscriptRecord[]): Promise<void> {
  const seq = lastRecord(team, 'alice')?.seq ?? 0
  await team.host.close()
  const transcript = join(team.workspace, '.team', 'transcripts', 'alice.jsonl')
  records.forEach((record, index) => {
    const stamped = { v: 1, seq: seq + index + 1, at: Date.now() / 1000, ...record }
    appendFileSync(transcript, `${JSON.stringify(stamped)}\n`)
  })
  const config = join(team.workspace, '.team', 'config.json')
  const roster = JSON.parse(readFileSync(config, 'utf8')) as { members: { status: string }[] }
  for (const member of roster.members) member.status = 'working'
  writeFileSync(config, JSON.stringify(roster))
}

describe('restart recovery', () => {
  it('a tool call found without its result gets an is_error "interrupted" result; bash is not re-run', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice' && call <= 2 ? text(call === 1 ? 'Ready.' : 'I will check.') : undefined,
    )
    const first = await startHost(script)
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Count.' })
    await first.host.whenIdle()
    await crashAfter(
      first,
      { kind: 'user', from: 'lead', text: 'Count once more.' },
      {
        kind: 'assistant',
        message_id: 'msg_before_the_crash',
        model: 'offline-test',
        content: [
          {
            type: 'tool_use',
            id: 'tu_crash',
            name: 'bash',
            input: { command: 'echo ran >> counter.txt' },
          },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    )

    const team = await first.restart()
    await waitFor(
      () => requestsOf(team, 'alice').length === 2,
      () => "alice's resumed call",
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(existsSync(join(team.workspace, 'counter.txt'))).toBe(false)
    const [result] = team.records('alice', 'tool-result')
    expect(result).toMatchObject({ tool_use_id: 'tu_crash', is_error: true })
    expect(result?.content).toMatch(/interrupted by a restart; outcome unknown/)
    const resumed = requestsOf(team, 'alice')[1]
    expect(resumed && 'error' in resumed.reply).toBe(false)
    expect(resultText(toolResults(resumed).get('tu_crash'))).toMatch(/not run again/)
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(
      eventsOf(team, 'agent-status-changed').some(
        (event) =>
          event.name === 'alice' && event.previous === 'working' && event.status === 'idle',
      ),
    ).toBe(true)
  })

  it('an agent that was working resumes from its last durable point by itself', async () => {
    const script = agentScript((agent, call) =>
      agent === 'alice' && call <= 2 ? text(call === 1 ? 'Ready.' : 'On it.') : undefined,
    )
    const first = await startHost(script)
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await first.host.whenIdle()
    await crashAfter(first, { kind: 'user', from: 'lead', text: 'The task before the crash.' })

    const team = await first.restart()
    await waitFor(
      () => requestsOf(team, 'alice').length === 2,
      () => "alice's resumed call",
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(lastUserTexts(requestsOf(team, 'alice')[1])).toEqual(['The task before the crash.'])
    expect(team.records('alice', 'user').map((record) => record.text)).toEqual([
      'Wait.',
      'The task before the crash.',
    ])
    expect(team.records('alice', 'assistant')).toHaveLength(2)
    expect(statusOf(team, 'alice')).toBe('idle')
  })
})
