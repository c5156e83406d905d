import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Budgets, NO_BUDGET } from '../../../src/main/runtime/budgets'
import { Roster } from '../../../src/main/runtime/roster/roster'
import { tempWorkspace } from '../../helpers/workspace'

const spent = (name: string, rounds: number) => ({
  name,
  usage: { input_tokens: 0, output_tokens: 0 },
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

    budgets.set('alice', { tokens: null, rounds: 3 }, (change) => roster.update(change))
    expect(budgets.problem('alice', agents)).toMatch(/agent's round budget is used up \(3 of 3/)

    writeFileSync(
      paths.config,
      JSON.stringify({
        team_name: 'default',
        members: [{ name: 'alice', role: 'r', status: 'idle' }],
        budgets: { team: { tokens: null, rounds: 7 } },
      }),
    )
    roster.reload()
    expect(budgets.forAgent('alice')).toEqual(NO_BUDGET)
    expect(budgets.problem('alice', agents)).toMatch(/team's round budget is used up \(7 of 7/)
    expect(budgets.problem('alice', [spent('alice', 3)])).toBeNull()
  })
})
