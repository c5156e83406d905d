import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../../src/shared/errors'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import type { Reply } from '../../../../src/offline-model/script'
import {
  agentScript,
  conversationText,
  gate,
  requestsOf,
  resultText,
  rosterOnDisk,
  toolResults,
} from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

async function thrown(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

async function thrownOrResult(action: () => Promise<unknown>): Promise<unknown> {
  try {
    return await action()
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : error
  }
}

describe('re-spawning a name', () => {
  it('re-uses an idle name: same roster entry, new role, and the earlier conversation as memory', async () => {
    const script = queueScript({
      alice: [text('Done with the first task: the answer is 42.'), text('Tested it.')],
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First task: find the answer.' })
    await team.host.whenIdle()
    expect(team.host.roster().members.map((member) => member.status)).toEqual(['idle'])

    const result = await team.host.spawn({ name: 'alice', role: 'tester', prompt: 'Now test it.' })
    expect(result).toContain('alice')
    await team.host.whenIdle()
    script.assertConsumed()

    const members = team.host.roster().members
    expect(members.map((member) => [member.name, member.role, member.status])).toEqual([
      ['alice', 'tester', 'idle'],
    ])
    expect(rosterOnDisk(team.workspace).filter((member) => member.name === 'alice')).toHaveLength(1)
    expect(team.records('alice', 'user').map((record) => record.text)).toEqual([
      'First task: find the answer.',
      'Now test it.',
    ])
    expect(team.records('alice', 'assistant')).toHaveLength(2)

    const [first, second] = requestsOf(team, 'alice')
    expect(JSON.stringify(first?.body.system)).toContain('coder')
    // The second activation remembers the first: the old task and answer are in the request.
    const memory = conversationText(second)
    expect(memory).toContain('First task: find the answer.')
    expect(memory).toContain('the answer is 42')
    expect(memory).toContain('Now test it.')
    expect(second?.body.messages).toHaveLength(3)
    // …and the system prompt names it with its new role, and the workspace.
    const system = JSON.stringify(second?.body.system)
    expect(system).toContain('alice')
    expect(system).toContain('tester')
    expect(system).toContain(team.workspace)
    expect(second && 'error' in second.reply).toBe(false)
  })

  it('re-uses a shut-down name the same way', async () => {
    const script = queueScript({ alice: [text('First done.'), text('Back again.')] })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Remember the word "teapot".' })
    await team.host.whenIdle()
    team.host.team.updateRoster((draft) => {
      const alice = draft.members.find((member) => member.name === 'alice')
      if (alice) alice.status = 'shutdown'
    })
    expect(team.host.roster().members[0]?.status).toBe('shutdown')

    await team.host.spawn({ name: 'alice', role: 'reviewer', prompt: 'Which word?' })
    await team.host.whenIdle()
    script.assertConsumed()

    expect(
      team.host.roster().members.map((member) => [member.name, member.role, member.status]),
    ).toEqual([['alice', 'reviewer', 'idle']])
    const respawned = team.events.find(
      (event) =>
        event.type === 'agent-status-changed' &&
        event.name === 'alice' &&
        event.previous === 'shutdown',
    )
    expect(respawned).toMatchObject({ status: 'working' })
    const second = requestsOf(team, 'alice')[1]
    expect(conversationText(second)).toContain('teapot')
    expect(conversationText(second)).toContain('First done.')
  })

  it('refuses a working name with member-working, and changes nothing', async () => {
    const held = gate()
    let midTurn = false
    const script = agentScript((agent, call) => {
      if (agent !== 'alice' || call !== 1) return undefined
      // The server records a request once the script answers; this marks its arrival.
      midTurn = true
      return held.hold(text('Finally done.'))
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'A slow task.' })
    await waitFor(
      () => midTurn,
      () => "alice's first model request",
    )
    expect(team.host.roster().members[0]).toMatchObject({ status: 'working', running: true })

    const error = await thrown(() =>
      team.host.spawn({ name: 'alice', role: 'tester', prompt: 'Another task.' }),
    )
    expect(error).toBeInstanceOf(TeamError)
    expect((error as TeamError).code).toBe('member-working')
    expect((error as TeamError).message).toContain('alice')

    held.open()
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(team.host.roster().members.map((member) => [member.role, member.status])).toEqual([
      ['coder', 'idle'],
    ])
    expect(team.records('alice', 'user').map((record) => record.text)).toEqual(['A slow task.'])
  })

  it("returns member-working to the lead's model as an is_error tool_result", async () => {
    const held = gate()
    const leadTurns: Reply[] = [
      toolCall('spawn_teammate', { name: 'alice', role: 'coder', prompt: 'Slow task.' }, 'tu_1'),
      toolCall('spawn_teammate', { name: 'alice', role: 'tester', prompt: 'Again.' }, 'tu_2'),
      text('alice is busy; I will wait.'),
    ]
    const script = agentScript((agent, call) => {
      if (agent === 'lead') {
        // alice answers only once the lead has seen the refusal: no timing involved.
        if (call === 3) held.open()
        return leadTurns[call - 1]
      }
      if (agent === 'alice' && call === 1) return held.hold(text('Slow task done.'))
      return undefined
    })
    const team = await startHost(script)
    team.host.chat('Spawn alice twice.')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])

    const leadRequests = requestsOf(team, 'lead')
    expect(leadRequests).toHaveLength(3)
    const accepted = toolResults(leadRequests[1]).get('tu_1')
    expect(accepted?.is_error).toBe(false)
    const refusedSpawn = toolResults(leadRequests[2]).get('tu_2')
    expect(refusedSpawn?.is_error).toBe(true)
    expect(resultText(refusedSpawn)).toMatch(/"alice" is working right now/)
    expect(leadRequests.every((request) => !('error' in request.reply))).toBe(true)
    expect(team.host.roster().members.map((member) => [member.role, member.status])).toEqual([
      ['coder', 'idle'],
    ])
  })

  it('refuses reserved and invalid names, from the host and from the lead', async () => {
    const bad = ['lead', 'user', '../x', 'Alice', '1abc', '']
    const script = queueScript({
      lead: [
        {
          content: bad.map((name, index) => ({
            type: 'tool_use' as const,
            name: 'spawn_teammate',
            input: { name, role: 'coder', prompt: 'Hello.' },
            id: `tu_bad_${index}`,
          })),
        },
        text('None of those worked.'),
      ],
    })
    const team = await startHost(script)
    for (const name of bad) {
      const error = await thrown(() => team.host.spawn({ name, role: 'coder', prompt: 'Hello.' }))
      expect(error, name).toBeInstanceOf(TeamError)
      const expected = name === 'lead' || name === 'user' ? 'reserved-name' : 'invalid-name'
      expect((error as TeamError).code, name).toBe(expected)
    }

    team.host.chat('Spawn some badly named teammates.')
    await team.host.whenIdle()
    script.assertConsumed()
    const results = toolResults(requestsOf(team, 'lead')[1])
    bad.forEach((name, index) => {
      const block = results.get(`tu_bad_${index}`)
      expect(block?.is_error, name).toBe(true)
      expect(resultText(block), name).toMatch(/reserved|Invalid name/)
    })
    expect(team.host.roster().members).toEqual([])
    expect(rosterOnDisk(team.workspace)).toEqual([])
    expect(existsSync(`${team.workspace}/.team/transcripts/user.jsonl`)).toBe(false)
    expect(existsSync(`${team.workspace}/.team/x.jsonl`)).toBe(false)
  })

  it('re-uses a name as soon as it is reported idle (a client reacting to the event)', async () => {
    const script = queueScript({ alice: [text('First done.'), text('Second done.')] })
    const team = await startHost(script)
    const outcomes: Promise<unknown>[] = []
    team.host.subscribe((event) => {
      if (event.type !== 'agent-status-changed' || event.name !== 'alice') return
      if (event.status !== 'idle' || outcomes.length > 0) return
      outcomes.push(
        thrownOrResult(() => team.host.spawn({ name: 'alice', role: 'tester', prompt: 'Next.' })),
      )
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'First.' })
    await team.host.whenIdle()
    // The roster said idle when the event came; "is working right now" would contradict it.
    expect(await Promise.all(outcomes)).toEqual(["Spawned 'alice' (role: tester)"])
    await team.host.whenIdle()
    script.assertConsumed()
    expect(team.records('alice', 'user').map((record) => record.text)).toEqual(['First.', 'Next.'])
  })

  it('writes the roster before the teammate loop starts', async () => {
    const seenOnDisk: unknown[] = []
    const script = agentScript((agent, call) => {
      if (agent !== 'alice' || call !== 1) return undefined
      seenOnDisk.push(rosterOnDisk(team.workspace).find((member) => member.name === 'alice'))
      return text('Started.')
    })
    const team = await startHost(script)
    // The loop's first step is recording its task: the roster on disk must already list alice.
    const atFirstRecord: unknown[] = []
    team.host.subscribe((event) => {
      if (event.type === 'transcript-appended' && event.agent === 'alice' && event.record.seq === 1)
        atFirstRecord.push(rosterOnDisk(team.workspace).find((member) => member.name === 'alice'))
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Go.' })
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    const working = expect.objectContaining({ name: 'alice', role: 'coder', status: 'working' })
    expect(atFirstRecord).toEqual([working])
    expect(seenOnDisk).toEqual([working])
    expect(rosterOnDisk(team.workspace)[0]?.status).toBe('idle')
  })
})
