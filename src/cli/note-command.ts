import { TeamError } from '../shared/errors'
import { TEAM_NOTE_MAX_CHARS } from '../shared/instructions'
import { readRegularTextSync } from '../runtime/fs/safe-open'
import { TeamNote } from '../runtime/instructions/team-note'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { UsageError, writeLine } from './output'

/**
 * `agent-teams note [show | set TEXT | edit --file F]`: the team note every member's system
 * prompt includes. Written atomically into .team/note.json; a running team's agents read it
 * before their next model call, so no restart is needed.
 */
export async function note(context: CommandContext): Promise<number> {
  const [action = 'show', ...rest] = context.positionals
  const paths = new TeamPaths(context.options.workspace)
  const file = new TeamNote(paths.root)
  switch (action) {
    case 'show': {
      if (rest.length > 0) throw new UsageError('"note show" takes no arguments')
      const view = file.read()
      if (view.problem !== null) throw new TeamError('file-invalid', view.problem)
      if (context.options.json) await writeLine(context.output.stdout, JSON.stringify(view))
      else if (view.text === '')
        await writeLine(context.output.stdout, `No team note in ${paths.workspace}.`)
      else await writeLine(context.output.stdout, view.text)
      return 0
    }
    case 'set': {
      if (rest.length !== 1)
        throw new UsageError('expected "note set TEXT" (quote the text; "" removes the note)')
      return saved(context, file.write(rest[0] ?? '', Date.now() / 1000).text)
    }
    case 'edit': {
      if (rest.length > 0 || context.options.file === undefined)
        throw new UsageError('expected "note edit --file F": the note is set to the file\'s text')
      const text = readRegularTextSync(context.options.file, {
        what: 'The note file',
        maxBytes: TEAM_NOTE_MAX_CHARS * 4,
        code: 'invalid-argument',
      })
      if (text === null)
        throw new TeamError('not-found', `There is no file ${context.options.file}.`)
      return saved(context, file.write(text, Date.now() / 1000).text)
    }
    default:
      throw new UsageError('expected "note", "note show", "note set TEXT" or "note edit --file F"')
  }
}

async function saved(context: CommandContext, text: string): Promise<number> {
  await writeLine(
    context.output.stdout,
    text === ''
      ? 'Removed the team note.'
      : `Saved the team note (${text.length.toLocaleString('en-US')} characters); every agent has it from its next model call.`,
  )
  return 0
}
