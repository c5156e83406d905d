import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline/promises'
import { TeamError } from '../shared/errors'
import { Roster } from '../runtime/roster/roster'
import type { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { writeLine } from './output'

/** Why config.json cannot be read, or null when it can (or does not exist). */
function rosterProblem(paths: TeamPaths): TeamError | null {
  try {
    Roster.read(paths)
    return null
  } catch (error) {
    if (error instanceof TeamError && error.code === 'roster-invalid') return error
    throw error
  }
}

/** Asks a yes/no question on the terminal; anything but y or yes is no. */
export async function confirm(context: CommandContext, question: string): Promise<boolean> {
  const input = context.output.stdin
  if (input === undefined) return false
  const prompt = createInterface({ input, output: context.output.stderr, terminal: false })
  try {
    const answer = await prompt.question(`${question} [y/N] `)
    return /^(y|yes)$/i.test(answer.trim())
  } finally {
    prompt.close()
  }
}

/**
 * `agent-teams roster --reset`: sets an unreadable config.json aside and starts an empty roster.
 * It empties the team, so it is refused on a file that reads fine, and it asks first (or needs
 * --yes where there is no terminal to ask on).
 */
export async function resetRoster(context: CommandContext, paths: TeamPaths): Promise<number> {
  const problem = rosterProblem(paths)
  if (problem === null) {
    if (!existsSync(paths.config))
      throw new TeamError(
        'not-found',
        `There is no ${paths.config} to reset; the team is empty already.`,
      )
    const count = Roster.read(paths).members.length
    throw new TeamError(
      'roster-valid',
      `${paths.config} is valid (${count} member${count === 1 ? '' : 's'}): nothing to reset. --reset only sets aside a file that cannot be read.`,
    )
  }
  if (!context.options.yes) {
    const canAsk = context.output.stdin?.isTTY === true
    if (!canAsk)
      throw new TeamError(
        'needs-confirmation',
        `${problem.message}\nResetting sets it aside and empties the team; run again with --yes to do so.`,
      )
    await writeLine(context.output.stderr, problem.message)
    if (!(await confirm(context, 'Set it aside and start an empty roster?'))) {
      await writeLine(context.output.stderr, 'Left config.json as it is.')
      return 1
    }
  }
  const { keptAs } = Roster.reset(paths)
  await writeLine(
    context.output.stdout,
    keptAs
      ? `Started an empty roster; the old file is kept as ${keptAs}`
      : 'Started an empty roster.',
  )
  return 0
}
