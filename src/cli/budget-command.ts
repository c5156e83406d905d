import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import { MAX_BUDGET_USD, type Budget } from '../shared/budget'
import { formatUsd } from '../shared/cost'
import { budgetInFile } from '../runtime/budgets/budgets'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { UsageError, writeLine } from './output'

/** How long `budget` waits for the running team to write the new budget into config.json. */
const WRITE_WAIT_MS = 10_000

function whose(name: string | null): string {
  return name === null ? "the team's" : `${name}'s`
}

/** "50,000 tokens, 20 model calls and $5.00", "no token limit, 1 model call and no dollar limit", … */
export function describeBudget(budget: Budget): string {
  const tokens =
    budget.tokens === null
      ? 'no token limit'
      : `${budget.tokens.toLocaleString('en-US')} token${budget.tokens === 1 ? '' : 's'}`
  const rounds =
    budget.rounds === null
      ? 'no limit on model calls'
      : `${budget.rounds.toLocaleString('en-US')} model call${budget.rounds === 1 ? '' : 's'}`
  const usd = budget.usd === null ? 'no dollar limit' : formatUsd(budget.usd, true)
  return `${tokens}, ${rounds} and ${usd}`
}

/**
 * A dollar amount as typed: digits with at most six decimals ("5", "0.25"), or "none". No
 * exponents, signs, separators or currency symbols: what is typed is what is meant.
 */
export function parseUsd(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined
  if (value === 'none') return null
  const amount = /^\d{1,7}(\.\d{1,6})?$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isFinite(amount) || amount <= 0 || amount > MAX_BUDGET_USD)
    throw new UsageError(
      `--usd takes an amount of dollars above 0 and at most ${MAX_BUDGET_USD.toLocaleString('en-US')} (e.g. 5 or 0.25, no "$"), or "none"`,
    )
  return amount
}

function parseLimit(value: string | undefined, option: string): number | null | undefined {
  if (value === undefined) return undefined
  if (value === 'none') return null
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(number) || number < 1)
    throw new UsageError(`${option} takes a whole number of at least 1, or "none"`)
  return number
}

function budgetOnDisk(paths: TeamPaths, name: string | null): Budget {
  return budgetInFile(Roster.read(paths).budgets, name)
}

/** Waits until config.json holds `wanted`: only then is "Set …" true. */
async function awaitBudget(paths: TeamPaths, name: string | null, wanted: Budget): Promise<void> {
  const deadline = Date.now() + WRITE_WAIT_MS
  for (;;) {
    const now = budgetOnDisk(paths, name)
    if (now.tokens === wanted.tokens && now.rounds === wanted.rounds && now.usd === wanted.usd)
      return
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not written ${whose(name)} new budget after ${WRITE_WAIT_MS / 1000} s; its window says why.`,
      )
    await sleep(50)
  }
}

/**
 * `agent-teams budget [<name>]`: with no flags it shows the budget; --tokens/--rounds/--usd set
 * one limit each (a limit not given stays as it is); --clear lifts them all. A change goes to the
 * running team through control.jsonl and is reported once config.json holds it.
 */
export async function budget(context: CommandContext): Promise<number> {
  if (context.positionals.length > 1)
    throw new UsageError("expected at most one <name> (none: the team's budget)")
  const name = context.positionals[0] ?? null
  const paths = new TeamPaths(context.options.workspace)
  if (name !== null) knownAgent(paths, name)
  const tokens = parseLimit(context.options.tokens, '--tokens')
  const rounds = parseLimit(context.options.rounds, '--rounds')
  const usd = parseUsd(context.options.usd)
  const current = budgetOnDisk(paths, name)
  const given = tokens !== undefined || rounds !== undefined || usd !== undefined
  if (context.options.clear && given)
    throw new UsageError('--clear lifts every limit; give it without --tokens, --rounds or --usd')
  if (!context.options.clear && !given) {
    const text = `${name === null ? "The team's" : `${name}'s`} budget: ${describeBudget(current)}.`
    await writeLine(
      context.output.stdout,
      context.options.json ? JSON.stringify({ name, ...current }) : text,
    )
    return 0
  }
  const wanted: Budget = context.options.clear
    ? { tokens: null, rounds: null, usd: null }
    : {
        tokens: tokens === undefined ? current.tokens : tokens,
        rounds: rounds === undefined ? current.rounds : rounds,
        usd: usd === undefined ? current.usd : usd,
      }
  sendControl(paths, { command: 'budget', name, ...wanted })
  await awaitBudget(paths, name, wanted)
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ name, ...wanted })
      : context.options.clear
        ? `Cleared ${whose(name)} budget: no limit on tokens, model calls or dollars.`
        : `Set ${whose(name)} budget to ${describeBudget(wanted)}.`,
  )
  return 0
}
