import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { agentScript, requestsOf } from '../../../helpers/agents'
import { cli } from '../../../helpers/cli'
import {
  eventsOf,
  lastRecord,
  reasonsFor,
  statusOf,
  waitCausesOf,
  waitForStatus,
} from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const read = (id: string): Reply => toolCall('read_file', { path: `notes-${id}.txt` }, id)
const withUsage = (reply: Reply, tokens: number): Reply => ({
  ...(reply as Exclude<Reply, { fault: string }>),
  usage: { input_tokens: tokens - 10, output_tokens: 10 },
})

function budgetsOnDisk(team: HostUnderTest): unknown {
  return (
    JSON.parse(readFileSync(join(team.workspace, '.team', 'config.json'), 'utf8')) as {
      budgets?: unknown
    }
  ).budgets
}

async function pausedByRounds(): Promise<HostUnderTest> {
  const replies = [read('tu_1'), read('tu_2'), read('tu_3'), text('Done within budget.')]
  const script = agentScript((agent, call) => (agent === 'alice' ? replies[call - 1] : undefined))
  const team = await startHost(script, {
    budgets: { agent: { tokens: null, rounds: 2, usd: null } },
  })
  writeFileSync(join(team.workspace, 'notes.txt'), 'notes\n')
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Read your notes.' })
  await waitForStatus(team, 'alice', 'waiting')
  await team.host.whenIdle()
  expect(requestsOf(team, 'alice')).toHaveLength(2)
  const [reason] = reasonsFor(team, 'alice', 'waiting')
  expect(reason).toMatch(/round budget/)
  // That it is a pause is the cause's to say: the words carry no "paused:" for anyone to parse.
  expect(reason).not.toMatch(/paused/)
  // The UI offers "Set budget" from this cause, never from the reason's words.
  expect(waitCausesOf(team, 'alice')).toEqual(['budget'])
  // The transcript is for people: it says so in words.
  expect(lastRecord(team, 'alice')).toMatchObject({
    kind: 'status',
    status: 'waiting',
    reason: `paused: ${reason}`,
  })
  return team
}

describe('budgets', () => {
  it('an agent round budget pauses it after 2 model calls; raising it resumes; it persists', async () => {
    const team = await pausedByRounds()
    team.host.setBudget('alice', { tokens: null, rounds: 5, usd: null })
    await waitFor(
      () => requestsOf(team, 'alice').length === 4,
      () => 'the resumed calls',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.records('alice', 'assistant')).toHaveLength(4)
    expect(team.host.budgetOf('alice')).toEqual({ tokens: null, rounds: 5, usd: null })
    expect(budgetsOnDisk(team)).toEqual({
      agents: { alice: { tokens: null, rounds: 5, usd: null } },
    })

    // After a restart with no default budgets, config.json's budget still applies.
    const again = await team.restart({ budgets: {} })
    expect(again.host.budgetOf('alice')).toEqual({ tokens: null, rounds: 5, usd: null })
    expect(again.host.budgetOf(null)).toEqual({ tokens: null, rounds: null, usd: null })
    expect(again.host.budgetOf('bob')).toEqual({ tokens: null, rounds: null, usd: null })
  })

  it('agent-teams budget alice --rounds 9 raises it through the control file', async () => {
    const team = await pausedByRounds()
    const result = await cli(['budget', 'alice', '--rounds', '9', '--workspace', team.workspace])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    await waitFor(
      () => team.host.budgetOf('alice').rounds === 9,
      () => 'the new budget',
    )
    await waitFor(
      () => requestsOf(team, 'alice').length === 4,
      () => 'the resumed calls',
    )
    await team.host.whenIdle()
    expect(team.host.budgetOf('alice')).toEqual({ tokens: null, rounds: 9, usd: null })
    // The window learns a budget set from the CLI from this event, not by reading a snapshot.
    expect(eventsOf(team, 'budget-changed')).toEqual([
      { type: 'budget-changed', name: 'alice', budget: { tokens: null, rounds: 9, usd: null } },
    ])
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('a team token budget counts every agent together and pauses them', async () => {
    const script = agentScript((agent, call) => {
      if (agent === 'alice')
        return call === 1
          ? withUsage(text('Alice spent 200.'), 200)
          : call === 2
            ? text('Alice goes on.')
            : undefined
      if (agent === 'bob') return call === 1 ? withUsage(text('Bob spent 100.'), 100) : undefined
      return undefined
    })
    const team = await startHost(script, {
      budgets: { team: { tokens: 250, rounds: null, usd: null } },
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    // Alone, alice is under the team's budget: bob may still work.
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Work.' })
    await team.host.whenIdle()
    expect(requestsOf(team, 'bob')).toHaveLength(1)

    team.host.send({ to: 'alice', content: 'More, please.' })
    await waitForStatus(team, 'alice', 'waiting')
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')).toHaveLength(1)
    expect(reasonsFor(team, 'alice', 'waiting')[0]).toMatch(/team's token budget .*300 of 250/)

    team.host.setBudget(null, { tokens: 1000, rounds: null, usd: null })
    await waitFor(
      () => requestsOf(team, 'alice').length === 2,
      () => 'the resumed call',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.host.budgetOf(null)).toEqual({ tokens: 1000, rounds: null, usd: null })
    expect(budgetsOnDisk(team)).toEqual({ team: { tokens: 1000, rounds: null, usd: null } })
  })
})
