import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src/cli/main'
import { text } from '../../../src/offline-model/script'
import { Roster } from '../../../src/runtime/roster/roster'
import { agentScript } from '../../helpers/agents'
import { runAgentTeams } from '../../helpers/bin'
import { cli, type CliResult } from '../../helpers/cli'
import { statusOf } from '../../helpers/faults'
import { startHost } from '../../helpers/host'
import { Capture } from '../../helpers/streams'
import { tempWorkspace } from '../../helpers/workspace'

/** Runs the CLI with a terminal on stdin that answers `answer`. */
async function onTerminal(args: readonly string[], answer: string): Promise<CliResult> {
  const stdout = new Capture()
  const stderr = new Capture()
  const stdin = Object.assign(new PassThrough(), { isTTY: true })
  stdin.end(`${answer}\n`)
  const code = await main(args, { stdout, stderr, stdin })
  return { code, stdout: stdout.text, stderr: stderr.text, lines: stdout.lines }
}

describe('roster --reset never empties a team by surprise', () => {
  it('refuses a valid roster, and a missing one, saying so (exit 1)', async () => {
    const { dir, paths } = tempWorkspace()
    const absent = await cli(['roster', '--reset', '--yes', '--workspace', dir])
    expect(absent.code).toBe(1)
    expect(absent.stderr).toMatch(/There is no .*config\.json to reset; the team is empty already/)
    const roster = Roster.open(paths)
    roster.update((draft) => {
      draft.members.push({ name: 'alice', role: 'coder', status: 'idle' })
    })
    const before = readFileSync(paths.config, 'utf8')
    for (const args of [[], ['--yes']]) {
      const result = await cli(['roster', '--reset', ...args, '--workspace', dir])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/config\.json is valid \(1 member\): nothing to reset/)
      expect(result.stdout).toBe('')
    }
    expect(readFileSync(paths.config, 'utf8')).toBe(before)
  })

  it('on an unreadable roster: asks on a terminal, needs --yes without one', async () => {
    const { dir, paths } = tempWorkspace()
    Roster.open(paths)
    writeFileSync(paths.config, '{"team_name": ')
    const unasked = await cli(['roster', '--reset', '--workspace', dir])
    expect(unasked.code).toBe(1)
    expect(unasked.stderr).toMatch(/not valid JSON/)
    expect(unasked.stderr).toMatch(/run again with --yes/)
    expect(readFileSync(paths.config, 'utf8')).toBe('{"team_name": ')

    const declined = await onTerminal(['roster', '--reset', '--workspace', dir], 'n')
    expect(declined.code).toBe(1)
    expect(declined.stderr).toMatch(/Set it aside and start an empty roster\? \[y\/N\]/)
    expect(declined.stderr).toMatch(/Left config\.json as it is/)
    expect(readFileSync(paths.config, 'utf8')).toBe('{"team_name": ')

    const agreed = await onTerminal(['roster', '--reset', '--workspace', dir], 'y')
    expect(agreed.code).toBe(0)
    expect(agreed.stdout).toMatch(/Started an empty roster; the old file is kept as \S+invalid-/)
    expect(Roster.read(paths).members).toEqual([])
  })
})

describe('the CLI says what happened, and refuses what it cannot do', () => {
  it('budget: shows without flags, sets with them (keeping the other limit), clears with --clear', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    const workspace = ['--workspace', team.workspace]
    const config = (): string => readFileSync(join(team.workspace, '.team', 'config.json'), 'utf8')
    const shown = async (who: string[]): Promise<string> => {
      const result = await cli(['budget', ...who, ...workspace])
      expect(result.code).toBe(0)
      return result.stdout
    }

    const before = config()
    expect(await shown(['alice'])).toBe(
      "alice's budget: no token limit, no limit on model calls and no dollar limit.\n",
    )
    expect(config()).toBe(before)

    const set = await cli(['budget', 'alice', '--tokens', '50000', '--rounds', '20', ...workspace])
    expect(set.stderr).toBe('')
    expect(set.stdout).toBe(
      "Set alice's budget to 50,000 tokens, 20 model calls and no dollar limit.\n",
    )
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 20, usd: null })
    // Shown again, without flags: unchanged.
    expect(await shown(['alice'])).toBe(
      "alice's budget: 50,000 tokens, 20 model calls and no dollar limit.\n",
    )
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 20, usd: null })

    const one = await cli(['budget', 'alice', '--rounds', '1', ...workspace])
    expect(one.stdout).toBe(
      "Set alice's budget to 50,000 tokens, 1 model call and no dollar limit.\n",
    )
    const dollars = await cli(['budget', 'alice', '--usd', '2.5', ...workspace])
    expect(dollars.stderr).toBe('')
    expect(dollars.stdout).toBe("Set alice's budget to 50,000 tokens, 1 model call and $2.50.\n")
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 1, usd: 2.5 })
    // A change to another limit keeps the dollar limit.
    await cli(['budget', 'alice', '--rounds', '2', ...workspace])
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 2, usd: 2.5 })
    for (const hostile of [
      '0',
      '-1',
      '1e3',
      '$5',
      '5,00',
      'NaN',
      'Infinity',
      '0x10',
      '2000000',
      '0.1234567',
      ' 5',
      '',
    ]) {
      const refused = await cli(['budget', 'alice', `--usd=${hostile}`, ...workspace])
      expect(refused.code, hostile).toBe(2)
      expect(refused.stderr).toMatch(
        /--usd takes an amount of dollars above 0 and at most 1,000,000/,
      )
    }
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 2, usd: 2.5 })
    const noDollars = await cli(['budget', 'alice', '--usd', 'none', ...workspace])
    expect(noDollars.code).toBe(0)
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 50_000, rounds: 2, usd: null })
    const both = await cli(['budget', 'alice', '--clear', '--tokens', '5', ...workspace])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/--clear lifts every limit/)
    const withUsd = await cli(['budget', 'alice', '--clear', '--usd', '5', ...workspace])
    expect(withUsd.code).toBe(2)
    const cleared = await cli(['budget', 'alice', '--clear', ...workspace])
    expect(cleared.code).toBe(0)
    expect(cleared.stdout).toBe(
      "Cleared alice's budget: no limit on tokens, model calls or dollars.\n",
    )
    expect(team.host.budgetOf('alice')).toEqual({ tokens: null, rounds: null, usd: null })

    const teamBudget = await cli(['budget', '--tokens', '1000000', ...workspace])
    expect(teamBudget.stdout).toBe(
      "Set the team's budget to 1,000,000 tokens, no limit on model calls and no dollar limit.\n",
    )
    expect(await shown([])).toBe(
      "The team's budget: 1,000,000 tokens, no limit on model calls and no dollar limit.\n",
    )
  })

  it('stop and resume say the truth about an agent that has nothing to stop or resume', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    const stopped = await cli(['stop', 'alice', '--json', '--workspace', team.workspace])
    expect(stopped.code).toBe(1)
    expect(stopped.stdout).toBe('')
    // The code says what holds it, for a script to act on; the message says it to a person.
    expect(JSON.parse(stopped.stderr)).toEqual({
      error: { code: 'not-running', message: 'alice is idle: there is nothing to stop.' },
    })
    expect(existsSync(join(team.workspace, '.team', 'control.jsonl'))).toBe(false)

    // As the shutdown protocol leaves it (the protocol itself is tested in protocols/).
    team.host.team.setStatus('alice', 'shutdown', 'test: shut down')
    const resumed = await cli(['resume', 'alice', '--json', '--workspace', team.workspace])
    expect(resumed.code).toBe(1)
    expect(JSON.parse(resumed.stderr)).toMatchObject({
      error: { code: 'member-shut-down', message: expect.stringMatching(/spawn it again/) },
    })
    const again = await cli(['shutdown', 'alice', '--workspace', team.workspace])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/alice is already shut down/)
    expect(existsSync(join(team.workspace, '.team', 'control.jsonl'))).toBe(false)
  })

  it('send and broadcast refuse empty or blank content (exit 2) and append nothing', async () => {
    const { dir, paths } = tempWorkspace()
    for (const content of ['', '   ', '\n\t']) {
      const sent = await cli(['send', 'lead', content, '--workspace', dir])
      expect(sent.code, JSON.stringify(content)).toBe(2)
      expect(sent.stderr).toMatch(/the content is empty/)
      const broadcast = await cli(['broadcast', content, '--workspace', dir])
      expect(broadcast.code).toBe(2)
    }
    expect(existsSync(join(paths.root, 'inbox', 'lead.jsonl'))).toBe(false)
  })

  it('transcript of nobody exits 1, saying how to see the team', async () => {
    const { dir } = tempWorkspace()
    const result = await cli(['transcript', 'nobody', '--workspace', dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/"nobody" is not on the roster of .*"agent-teams roster" lists/)
    expect((await cli(['transcript', 'lead', '--workspace', dir])).code).toBe(0)
  })
})

describe('the real binary, without a terminal', () => {
  it("refuses an unasked reset, blank content and an unknown agent with the convention's codes", async () => {
    const { dir, paths } = tempWorkspace()
    Roster.open(paths)
    writeFileSync(paths.config, '{"team_name": ')
    const reset = await runAgentTeams(['roster', '--reset', '--workspace', dir], {
      timeoutMs: 120_000,
    })
    expect(reset.code, reset.stderr).toBe(1)
    expect(reset.stderr).toMatch(/run again with --yes/)
    expect(readFileSync(paths.config, 'utf8')).toBe('{"team_name": ')
    const yes = await runAgentTeams(['roster', '--reset', '--yes', '--workspace', dir], {
      timeoutMs: 120_000,
    })
    expect(yes.code, yes.stderr).toBe(0)
    const blank = await runAgentTeams(['send', 'lead', ' ', '--workspace', dir], {
      timeoutMs: 120_000,
    })
    expect(blank.code).toBe(2)
    const nobody = await runAgentTeams(['transcript', 'nobody', '--workspace', dir], {
      timeoutMs: 120_000,
    })
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toMatch(/"nobody" is not on the roster/)
  }, 300_000)
})
