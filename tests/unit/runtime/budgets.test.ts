import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Budgets, NO_BUDGET } from '../../../src/runtime/budgets/budgets'
import { Roster } from '../../../src/runtime/roster/roster'
import { tempWorkspace } from '../../helpers/workspace'

const spent = (name: string, rounds: number) => ({
  name,
  usage: { input_tokens: 0, output_tokens: 0 },
  usageByModel: [],
  roundsUsed: rounds,
})

describe('budgets', () => {
  it('follow config.json: set through the roster or edited by hand, each seen at the next check', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    roster.update((draft) => void draft.members.push({ name: 'alice', role: 'r', status: 'idle' }))
    const budgets = new Budgets(roster, { agent: NO_BUDGET, team: NO_BUDGET })
    const agents = [spent('alice', 3), spent('bob', 4)]
    expect(budgets.problem('alice', agents)).toBeNull()

    budgets.set('alice', { tokens: null, rounds: 3, usd: null }, (change) => roster.update(change))
    expect(budgets.problem('alice', agents)).toMatch(/agent's round budget is used up \(3 of 3/)

    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'default',
        members: [{ name: 'alice', role: 'r', status: 'idle' }],
        budgets: { team: { tokens: null, rounds: 7, usd: null } },
      }),
    )
    roster.reload()
    expect(budgets.forAgent('alice')).toEqual(NO_BUDGET)
    expect(budgets.problem('alice', agents)).toMatch(/team's round budget is used up \(7 of 7/)
    expect(budgets.problem('alice', [spent('alice', 3)])).toBeNull()
  })
})

describe('dollar budgets', () => {
  const sonnet = 'claude-sonnet-4-5'
  // 10,000 input tokens at $3 and 2,000 output at $15 a million: $0.06.
  const alice = {
    name: 'alice',
    usage: { input_tokens: 10_000, output_tokens: 2_000 },
    usageByModel: [{ model: sonnet, usage: { input_tokens: 10_000, output_tokens: 2_000 } }],
    roundsUsed: 2,
  }

  function budgetsWith(file: unknown, prices = {}) {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'default',
        members: [{ name: 'alice', role: 'r', status: 'idle' }],
        budgets: file,
      }),
    )
    roster.reload()
    return {
      roster,
      budgets: new Budgets(roster, { agent: NO_BUDGET, team: NO_BUDGET }, () => prices),
    }
  }

  it('config.json written before dollar budgets still reads: no dollar limit', () => {
    const { budgets } = budgetsWith({ agents: { alice: { tokens: 500, rounds: null } } })
    expect(budgets.forAgent('alice')).toEqual({ tokens: 500, rounds: null, usd: null })
  })

  it('pause an agent once its cost reaches the limit, at list prices or the settings', () => {
    const { budgets } = budgetsWith({
      agents: { alice: { tokens: null, rounds: null, usd: 0.07 } },
    })
    expect(budgets.problem('alice', [alice], sonnet)).toBeNull()
    const { budgets: tight } = budgetsWith({
      agents: { alice: { tokens: null, rounds: null, usd: 0.06 } },
    })
    expect(tight.problem('alice', [alice], sonnet)).toBe(
      "the agent's dollar budget is used up ($0.0600 of $0.0600); raise it to resume",
    )
    // The person's price for Sonnet 4 doubles the cost: $0.12 passes $0.07.
    const doubled = { 'claude-sonnet-4': { input: 6, output: 30, cacheWrite: 7.5, cacheRead: 0.6 } }
    const { budgets: repriced } = budgetsWith(
      { agents: { alice: { tokens: null, rounds: null, usd: 0.07 } } },
      doubled,
    )
    expect(repriced.problem('alice', [alice], sonnet)).toMatch(/\(\$0\.1200 of \$0\.0700\)/)
  })

  it('a team dollar budget adds every agent, across models', () => {
    const bob = {
      name: 'bob',
      usage: { input_tokens: 0, output_tokens: 4_000 },
      usageByModel: [
        { model: 'claude-haiku-4-5', usage: { input_tokens: 0, output_tokens: 4_000 } },
      ],
      roundsUsed: 1,
    }
    // $0.06 + 4,000 × $5 a million ($0.02) = $0.08.
    const { budgets } = budgetsWith({ team: { tokens: null, rounds: null, usd: 0.08 } })
    expect(budgets.problem('alice', [alice])).toBeNull()
    expect(budgets.problem('alice', [alice, bob])).toMatch(
      /^the team's dollar budget is used up \(\$0\.0800 of \$0\.0800\)/,
    )
  })

  it('cannot be enforced without a price: it says so and pauses, never passes silently', () => {
    const { budgets } = budgetsWith({ agents: { alice: { tokens: null, rounds: null, usd: 5 } } })
    const offline = { ...alice, usageByModel: [{ model: 'local-llama', usage: alice.usage }] }
    expect(budgets.problem('alice', [offline], sonnet)).toBe(
      "the agent's dollar budget ($5.00) cannot be enforced: no price is known for local-llama; set one in Settings > Prices, or lift the dollar budget",
    )
    // Before it spent anything: the model of its next call has no price.
    const fresh = { ...alice, usage: { input_tokens: 0, output_tokens: 0 }, usageByModel: [] }
    expect(budgets.problem('alice', [fresh], 'local-llama')).toMatch(
      /cannot be enforced: no price is known for local-llama/,
    )
    expect(budgets.problem('alice', [fresh], sonnet)).toBeNull()
    // Without a dollar limit an unknown price stops nothing.
    const { budgets: none } = budgetsWith({ agents: { alice: { tokens: 1e9, rounds: null } } })
    expect(none.problem('alice', [offline], 'local-llama')).toBeNull()
  })

  it('a hostile usd in config.json leaves the budgets unread, as any bad budgets value', () => {
    for (const usd of [-1, 0, '5', Number.MAX_VALUE, { $: 1 }]) {
      const { budgets } = budgetsWith({ agents: { alice: { tokens: null, rounds: null, usd } } })
      expect(budgets.forAgent('alice')).toEqual(NO_BUDGET)
    }
  })
})
