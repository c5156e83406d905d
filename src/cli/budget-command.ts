import { TeamError } from '../shared/errors'
import type { Budget } from '../main/runtime/agents/guards'
import { budgetInFile } from '../main/runtime/budgets'
import { Roster } from '../main/runtime/roster/roster'
import { TeamPaths } from '../main/runtime/team-paths'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { UsageError, writeLine } from './output'

/** How long `budget` waits for the running team to write the new budget into config.json. */
const WRITE_WAIT_MS = 10_000

function whose(name: string | null): string {
  return name === null ? "the team's" : `${name}'s`
}

/** "50,000 tokens and 20 model calls", "no token limit and 1 model call", … */
export function describeBudget(budget: Budget): string {
  const tokens =
    budget.tokens === null
      ? 'no token limit'
      : `${budget.tokens.toLocaleString('en-US')} token${budget.tokens === 1 ? '' : 's'}`
  const rounds =
    budget.rounds === null
      ? 'no limit on model calls'
      : `${budget.rounds.toLocaleString('en-US')} model call${budget.rounds === 1 ? '' : 's'}`
  return `${tokens} and ${rounds}`
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
    if (now.tokens === wanted.tokens && now.rounds === wanted.rounds) return
    if (Date.now() > deadline)
      throw new TeamError(
        'invalid-argument',
        `The running team has not written ${whose(name)} new budget after ${WRITE_WAIT_MS / 1000} s; its window says why.`,
      )
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * `agent-teams budget [<name>]`: with no flags it shows the budget; --tokens/--rounds set one
 * limit each (a limit not given stays as it is); --clear lifts both. A change goes to the
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
  const current = budgetOnDisk(paths, name)
  if (context.options.clear && (tokens !== undefined || rounds !== undefined))
    throw new UsageError('--clear lifts both limits; give it without --tokens or --rounds')
  if (!context.options.clear && tokens === undefined && rounds === undefined) {
    const text = `${name === null ? "The team's" : `${name}'s`} budget: ${describeBudget(current)}.`
    await writeLine(
      context.output.stdout,
      context.options.json ? JSON.stringify({ name, ...current }) : text,
    )
    return 0
  }
  const wanted: Budget = context.options.clear
    ? { tokens: null, rounds: null }
    : {
        tokens: tokens === undefined ? current.tokens : tokens,
        rounds: rounds === undefined ? current.rounds : rounds,
      }
  sendControl(paths, { command: 'budget', name, ...wanted })
  await awaitBudget(paths, name, wanted)
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ name, ...wanted })
      : context.options.clear
        ? `Cleared ${whose(name)} budget: no limit on tokens or model calls.`
        : `Set ${whose(name)} budget to ${describeBudget(wanted)}.`,
  )
  return 0
}
