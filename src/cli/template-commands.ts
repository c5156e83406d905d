import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { engineOf } from '../shared/engine'
import { TeamError } from '../shared/errors'
import { MAX_CONTROL_LINE_BYTES } from '../shared/control'
import { LEAD } from '../shared/names'
import type { TeamTemplate, TemplateEntry } from '../shared/templates'
import { engineAvailability } from '../runtime/engines/availability'
import { writeFileAtomicSync } from '../runtime/fs/durable'
import { assertEngineAvailable } from '../runtime/host/engine-check'
import { readRegularTextSync } from '../runtime/fs/safe-open'
import { TeamNote } from '../runtime/instructions/team-note'
import { settingsPath } from '../runtime/model/config'
import { Roster } from '../runtime/roster/roster'
import { isTeamRunning } from '../runtime/team/team'
import { TeamPaths } from '../runtime/team/paths'
import { applyTemplate, templateFromTeam } from '../runtime/templates/team-template'
import { TEMPLATE_MAX_BYTES, TemplateStore } from '../runtime/templates/template-store'
import type { CommandContext } from './commands'
import { sendControl } from './control-commands'
import { awaitRoster } from './model-commands'
import { oneLine, UsageError, writeLine } from './output'
import { configuredEndpoint, runTeam } from './team-commands'

type Command = (context: CommandContext) => Promise<number>

const USAGE =
  'expected "team save <name>", "team list", "team apply <name>", "team delete <name>", "team export <name> [--file F]" or "team import --file F"'

/** The templates folder beside settings.json ($XDG_CONFIG_HOME/agent-teams/templates). */
function templateStore(): TemplateStore {
  return TemplateStore.inConfigFolder(dirname(settingsPath()))
}

function oneName(context: CommandContext): string {
  if (context.positionals.length !== 2)
    throw new UsageError(`expected "team ${context.positionals[0]} <name>"`)
  return context.positionals[1] ?? ''
}

function describeMembers(template: TeamTemplate): string {
  return template.members.map((member) => `${member.name} (${oneLine(member.role)})`).join(', ')
}

/** `agent-teams team save|list|apply|delete|export|import`: the user's team templates. */
export const team: Command = async (context) => {
  const action = context.positionals[0]
  switch (action) {
    case 'save':
      return save(context)
    case 'list':
      return list(context)
    case 'apply':
      return apply(context)
    case 'delete': {
      const name = oneName(context)
      templateStore().delete(name)
      await writeLine(context.output.stdout, `Deleted the template "${name}".`)
      return 0
    }
    case 'export':
      return exportTemplate(context)
    case 'import':
      return importTemplate(context)
    default:
      throw new UsageError(USAGE)
  }
}

const save: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  const template = templateStore().save(
    templateFromTeam(paths, {
      name,
      description: context.options.description,
      nowSeconds: Date.now() / 1000,
    }),
    { replace: context.options.replace, replaceHint: 'add --replace' },
  )
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify(template)
      : `Saved the team of ${paths.workspace} as the template "${name}": ${describeMembers(template)}.`,
  )
  return 0
}

const list: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('"team list" takes no arguments')
  const { templates, problems } = templateStore().list()
  for (const problem of problems)
    await writeLine(context.output.stderr, `agent-teams team: ${problem.message} (skipped)`)
  for (const entry of templates)
    await writeLine(context.output.stdout, describeEntry(entry, context.options.json))
  return 0
}

function describeEntry(entry: TemplateEntry, json: boolean): string {
  if (json) return JSON.stringify(entry)
  const { template } = entry
  const description = template.description === '' ? '' : ` — ${oneLine(template.description)}`
  return `${oneLine(template.name)}${entry.builtin ? ' (built-in)' : ''}: ${describeMembers(template)}${description}`
}

/**
 * Applies a template: to the running team through control.jsonl (as `spawn` does), or, with no
 * team running, by running one here until the members have done their first turns (as `chat`).
 */
const apply: Command = async (context) => {
  const name = oneName(context)
  const { template } = templateStore().get(name)
  const paths = new TeamPaths(context.options.workspace)
  if (!isTeamRunning(paths))
    return runTeam(context, paths.workspace, configuredEndpoint(), async (host) => {
      await writeLine(context.output.stdout, await applyTemplate(host, template))
    })
  const members = Roster.read(paths).members
  if (members.length > 0)
    throw new TeamError(
      'team-not-empty',
      `The team in ${paths.workspace} already has members (${members.map((member) => member.name).join(', ')}); apply a template to a new or empty workspace.`,
    )
  // Refused here, before anything is sent, as the running team would refuse it.
  for (const member of template.members)
    assertEngineAvailable(engineOf(member), engineAvailability())
  if (template.lead)
    sendControl(paths, {
      command: 'model',
      name: LEAD,
      model: template.lead.model ?? null,
      thinking: template.lead.thinking ?? null,
    })
  const note = new TeamNote(paths.root)
  if (template.note !== undefined && note.read().text.trim() === '')
    note.write(template.note, Date.now() / 1000)
  for (const member of template.members) {
    const command = {
      command: 'spawn',
      name: member.name,
      role: member.role,
      prompt: member.prompt,
      model: member.model ?? null,
      thinking: member.thinking ?? null,
      ...(member.plan_first ? { plan_first: true } : {}),
      ...(member.engine === undefined ? {} : { engine: member.engine }),
    }
    if (Buffer.byteLength(JSON.stringify(command)) > MAX_CONTROL_LINE_BYTES - 200)
      throw new UsageError(
        `${member.name}'s prompt is too long for the control channel (${MAX_CONTROL_LINE_BYTES / 1024} KiB a line); apply the template from the window`,
      )
    sendControl(paths, command)
  }
  await awaitRoster(paths, `the members of "${name}"`, (roster) =>
    template.members.every((member) =>
      roster.members.some((candidate) => candidate.name === member.name),
    ),
  )
  await writeLine(
    context.output.stdout,
    `Applied the template "${name}" to the running team: spawned ${describeMembers(template)}.`,
  )
  return 0
}

const exportTemplate: Command = async (context) => {
  const name = oneName(context)
  const text = templateStore().exportText(name)
  const file = context.options.file
  if (file === undefined) {
    await writeLine(context.output.stdout, text.trimEnd())
    return 0
  }
  if (existsSync(file) && !context.options.replace)
    throw new TeamError('already-exists', `${file} exists; choose another file, or add --replace.`)
  writeFileAtomicSync(file, text)
  await writeLine(context.output.stdout, `Exported the template "${name}" to ${file}.`)
  return 0
}

const importTemplate: Command = async (context) => {
  if (context.positionals.length !== 1)
    throw new UsageError('"team import" takes --file F, no names')
  const file = context.options.file
  if (file === undefined) throw new UsageError('give the exported template with --file F')
  const text = readRegularTextSync(file, {
    what: 'The template file',
    maxBytes: TEMPLATE_MAX_BYTES,
    code: 'invalid-argument',
    remedy: 'Give the JSON file "agent-teams team export" wrote.',
  })
  if (text === null) throw new TeamError('not-found', `There is no file ${file}.`)
  let template: TeamTemplate
  try {
    template = templateStore().importText(text, {
      replace: context.options.replace,
      replaceHint: 'add --replace',
    })
  } catch (error) {
    if (error instanceof TeamError)
      throw new TeamError(error.code, error.message.replace(/^The file /, `${file} `))
    throw error
  }
  await writeLine(
    context.output.stdout,
    `Imported the template "${template.name}": ${describeMembers(template)}.`,
  )
  return 0
}
