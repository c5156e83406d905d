import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import type { Price } from '../../../../src/shared/prices'
import type { Usage } from '../../../../src/shared/transcript'
import { agentScript, requestsOf } from '../../../helpers/agents'
import { cli } from '../../../helpers/cli'
import { reasonsFor, statusOf, waitForStatus } from '../../../helpers/faults'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** The test's model at a price that makes each call's output cost $0.10 (1,000 tokens at $100). */
const PRICE: Price = { input: 1, output: 100, cacheWrite: 1.25, cacheRead: 0.1 }
const MODEL = 'offline-test'

/** Only the output is scripted: the server accounts for the prompt and its cache as the API does. */
const costly = (reply: Reply): Reply => ({
  ...(reply as Exclude<Reply, { fault: string }>),
  usage: { output_tokens: 1_000 },
})
const read = (id: string): Reply => costly(toolCall('read_file', { path: `notes-${id}.txt` }, id))

/** The cost of one call, by hand: each kind of token at its rate, per million. */
function handCost(usage: Usage): number {
  return (
    (usage.input_tokens * 1 +
      (usage.cache_creation_input_tokens ?? 0) * 1.25 +
      (usage.cache_read_input_tokens ?? 0) * 0.1 +
      usage.output_tokens * 100) /
    1_000_000
  )
}

async function pausedByDollars(): Promise<{ team: HostUnderTest; spent: number }> {
  const replies = [read('tu_1'), read('tu_2'), read('tu_3'), read('tu_4'), costly(text('Done.'))]
  const script = agentScript((agent, call) => (agent === 'alice' ? replies[call - 1] : undefined))
  const team = await startHost(script, {
    prices: { [MODEL]: PRICE },
    budgets: { agent: { tokens: null, rounds: null, usd: 0.25 } },
  })
  for (const id of ['tu_1', 'tu_2', 'tu_3', 'tu_4'])
    writeFileSync(join(team.workspace, `notes-${id}.txt`), 'notes\n')
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Read your notes.' })
  await waitForStatus(team, 'alice', 'waiting')
  await team.host.whenIdle()
  // $0.10 and a little input a call: under $0.25 after two, past it after three.
  const turns = team.records('alice', 'assistant')
  expect(turns).toHaveLength(3)
  expect(requestsOf(team, 'alice')).toHaveLength(3)
  for (const turn of turns) {
    expect(turn.model).toBe(MODEL)
    expect(turn.usage.cache_creation_input_tokens).toEqual(expect.any(Number))
    expect(turn.usage.cache_read_input_tokens).toEqual(expect.any(Number))
  }
  // The prompt cache was used: later calls read the earlier prefix from it.
  expect(turns.some((turn) => (turn.usage.cache_read_input_tokens ?? 0) > 0)).toBe(true)
  const spent = turns.reduce((sum, turn) => sum + handCost(turn.usage), 0)
  expect(spent).toBeGreaterThanOrEqual(0.3)
  expect(spent).toBeLessThan(0.31)
  const [reason] = reasonsFor(team, 'alice', 'waiting')
  expect(reason).toContain(
    `the agent's dollar budget is used up ($${spent.toFixed(4)} of $0.2500); raise it to resume`,
  )
  return { team, spent }
}

describe('dollar budgets', () => {
  it('pause an agent once its calls cost its budget; raising it resumes; it persists', async () => {
    const { team } = await pausedByDollars()
    team.host.setBudget('alice', { tokens: null, rounds: null, usd: 10 })
    await waitFor(
      () => requestsOf(team, 'alice').length === 5,
      () => 'the resumed calls',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.host.budgetOf('alice')).toEqual({ tokens: null, rounds: null, usd: 10 })
    const again = await team.restart({ budgets: {} })
    expect(again.host.budgetOf('alice')).toEqual({ tokens: null, rounds: null, usd: 10 })
  })

  it('agent-teams budget alice --usd 1 raises it through the control file', async () => {
    const { team } = await pausedByDollars()
    const result = await cli(['budget', 'alice', '--usd', '1', '--workspace', team.workspace])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      "Set alice's budget to no token limit, no limit on model calls and $1.00.\n",
    )
    await waitFor(
      () => requestsOf(team, 'alice').length === 5,
      () => 'the resumed calls',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('a new price counts at once: a cheaper model lets the paused agent go on', async () => {
    const { team } = await pausedByDollars()
    team.host.setPrices({ [MODEL]: { ...PRICE, output: 10 } })
    await waitFor(
      () => requestsOf(team, 'alice').length === 5,
      () => 'the resumed calls',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
  })

  it('without a price the dollar budget cannot be enforced: the agent waits and says why', async () => {
    const script = agentScript((agent) => (agent === 'alice' ? costly(text('Done.')) : undefined))
    const team = await startHost(script, {
      budgets: { team: { tokens: null, rounds: null, usd: 5 } },
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await waitForStatus(team, 'alice', 'waiting')
    await team.host.whenIdle()
    expect(requestsOf(team, 'alice')).toHaveLength(0)
    expect(reasonsFor(team, 'alice', 'waiting')[0]).toContain(
      `the team's dollar budget ($5.00) cannot be enforced: no price is known for ${MODEL}`,
    )
    // A price for it lets the agent go on.
    team.host.setPrices({ [MODEL]: PRICE })
    await waitFor(
      () => requestsOf(team, 'alice').length === 1,
      () => 'the call after the price was set',
    )
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
  })
})
