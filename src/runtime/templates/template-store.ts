import { mkdirSync, readdirSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import {
  describeTemplateIssues,
  TEMPLATE_NAME_PATTERN,
  TEMPLATE_NAME_RULE,
  teamTemplateSchema,
  type TeamTemplate,
  type TemplateEntry,
  type TemplateProblem,
} from '../../shared/templates'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { BUILTIN_TEMPLATES, builtinTemplate } from './builtin-templates'

export interface SaveOptions {
  /** Replace a saved template of the same name. */
  readonly replace?: boolean
  /** How the refusal says to replace it ("add --replace" on the command line). */
  readonly replaceHint?: string
}

/** A template file is a few prompts: anything larger is not one. */
export const TEMPLATE_MAX_BYTES = FILE_CAPS.record

/**
 * The user's templates: `<config folder>/templates/<name>.json`, one file each, replaced
 * atomically, each parsed with the template schema when read. The built-in templates come
 * first and cannot be replaced or deleted; a file that cannot be read is reported, not skipped
 * silently and never overwritten.
 */
export class TemplateStore {
  constructor(readonly directory: string) {}

  /** The templates folder under the app's config folder (settings.json's folder). */
  static inConfigFolder(configDirectory: string): TemplateStore {
    return new TemplateStore(join(configDirectory, 'templates'))
  }

  list(): { templates: TemplateEntry[]; problems: TemplateProblem[] } {
    const templates: TemplateEntry[] = BUILTIN_TEMPLATES.map((template) => ({
      template,
      builtin: true,
    }))
    const problems: TemplateProblem[] = []
    for (const file of this.files()) {
      try {
        const template = this.readFile(file)
        if (template !== null) templates.push({ template, builtin: false })
      } catch (error) {
        problems.push({ file: join(this.directory, file), message: (error as Error).message })
      }
    }
    return { templates, problems }
  }

  get(name: string): TemplateEntry {
    assertTemplateName(name)
    const builtin = builtinTemplate(name)
    if (builtin) return { template: builtin, builtin: true }
    const template = this.readFile(`${name}.json`)
    if (template === null)
      throw new TeamError(
        'not-found',
        `There is no template "${name}" (see the list of templates).`,
      )
    return { template, builtin: false }
  }

  /** Saves `template` under its name; an existing one is replaced only when `replace` says so. */
  save(template: TeamTemplate, options: SaveOptions = {}): TeamTemplate {
    const parsed = parseTemplateValue(template, 'The template')
    if (builtinTemplate(parsed.name))
      throw new TeamError(
        'reserved-name',
        `"${parsed.name}" is a built-in template; save yours under another name.`,
      )
    const path = this.pathOf(parsed.name)
    if (!options.replace && this.readFile(`${parsed.name}.json`) !== null)
      throw new TeamError(
        'already-exists',
        `A template "${parsed.name}" already exists; choose another name, or ${options.replaceHint ?? 'replace it'}.`,
      )
    mkdirSync(this.directory, { recursive: true })
    writeFileAtomicSync(path, `${JSON.stringify(parsed, null, 2)}\n`)
    return parsed
  }

  delete(name: string): void {
    assertTemplateName(name)
    if (builtinTemplate(name))
      throw new TeamError(
        'not-permitted',
        `"${name}" is a built-in template: it cannot be deleted.`,
      )
    this.get(name)
    unlinkSync(this.pathOf(name))
  }

  /** The template as one JSON file, the format `importText` reads. */
  exportText(name: string): string {
    return `${JSON.stringify(this.get(name).template, null, 2)}\n`
  }

  /** Reads an exported template and saves it; refuses an invalid file with what is wrong. */
  importText(text: string, options: SaveOptions = {}): TeamTemplate {
    if (Buffer.byteLength(text) > TEMPLATE_MAX_BYTES)
      throw new TeamError(
        'too-large',
        `The file is over ${TEMPLATE_MAX_BYTES / 1024 / 1024} MiB: it is not a team template.`,
      )
    return this.save(parseTemplateText(text, 'The file'), options)
  }

  private files(): string[] {
    try {
      return readdirSync(this.directory)
        .filter((file) => file.endsWith('.json') && !file.startsWith('.'))
        .sort()
    } catch {
      return []
    }
  }

  private pathOf(name: string): string {
    return join(this.directory, `${name}.json`)
  }

  /** The template in `file`, or null when there is none; throws what is wrong with it. */
  private readFile(file: string): TeamTemplate | null {
    const path = join(this.directory, file)
    const text = readRegularTextSync(path, {
      what: 'The template file',
      maxBytes: TEMPLATE_MAX_BYTES,
      code: 'file-invalid',
      remedy: 'Fix it or delete it.',
    })
    if (text === null) return null
    const template = parseTemplateText(text, `The template file ${path}`)
    if (`${template.name}.json` !== file)
      throw new TeamError(
        'file-invalid',
        `The template file ${path} holds the template "${template.name}"; rename the file to ${template.name}.json.`,
      )
    return template
  }
}

/** Parses a template file's text; `what` names it in the error ("The file"). */
export function parseTemplateText(text: string, what: string): TeamTemplate {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new TeamError(
      'invalid-argument',
      `${what} is not valid JSON (${(error as Error).message}); a team template is one JSON object, as exported.`,
    )
  }
  return parseTemplateValue(value, what)
}

function parseTemplateValue(value: unknown, what: string): TeamTemplate {
  const parsed = teamTemplateSchema.safeParse(value)
  if (!parsed.success)
    throw new TeamError(
      'invalid-argument',
      `${what} is not a valid team template: ${describeTemplateIssues(parsed.error)}.`,
    )
  return parsed.data
}

export function assertTemplateName(name: string): void {
  if (!TEMPLATE_NAME_PATTERN.test(name))
    throw new TeamError(
      'invalid-argument',
      `${JSON.stringify(name.slice(0, 80))} is not a template name (${TEMPLATE_NAME_RULE}).`,
    )
}
