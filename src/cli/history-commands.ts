import { resolve } from 'node:path'
import {
  EXPORT_FORMATS,
  exportRequestSchema,
  searchQuerySchema,
  type SearchHit,
} from '../shared/history'
import { formatSecondsUtc } from '../shared/time'
import { exportText } from '../runtime/history/history-export'
import { fileHistorySource } from '../runtime/history/sources'
import { TeamHistory } from '../runtime/history/team-history'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { knownAgent } from './control-commands'
import { writeExportFile } from './export-file'
import { oneLine, UsageError, visibleText, writeLine, writeStreamed, writeText } from './output'

type Command = (context: CommandContext) => Promise<number>

/** A date on the command line: `2026-12-01`, `2026-12-01T18:00Z`, as seconds since the epoch. */
function parseDate(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN
  if (Number.isNaN(time))
    throw new UsageError(`${option} takes a date such as 2026-12-01 or 2026-12-01T18:00Z`)
  return time / 1000
}

/** The hit's text with each match marked as the terminal shows it: [match]. */
function marked(hit: SearchHit): string {
  let text = ''
  let at = 0
  for (const [start, end] of hit.highlights) {
    text += `${hit.snippet.slice(at, start)}[${hit.snippet.slice(start, end)}]`
    at = end
  }
  return text + hit.snippet.slice(at)
}

function placeOf(hit: SearchHit): string {
  return hit.place.source === 'transcript'
    ? `transcript #${hit.place.seq}`
    : `inbox p${hit.place.position.segment}-${hit.place.position.offset}`
}

export const search: Command = async (context) => {
  if (context.positionals.length > 1)
    throw new UsageError('expected one argument, the text to find (quote it)')
  const { options } = context
  const limit = options.limit === undefined ? undefined : Number(options.limit)
  const parsed = searchQuerySchema.safeParse({
    text: context.positionals[0] ?? '',
    agent: options.agent,
    sender: options.from,
    tool: options.tool,
    since: parseDate(options.since, '--since'),
    until: parseDate(options.until, '--until'),
    limit,
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(`${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`)
  }
  const query = parsed.data
  const filtered = [query.agent, query.sender, query.tool, query.since, query.until].some(
    (value) => value !== undefined,
  )
  if (query.text.trim().length === 0 && !filtered)
    throw new UsageError('give the text to find, or a filter (--agent, --from, --tool, --since)')
  const paths = new TeamPaths(options.workspace)
  if (query.agent !== undefined) knownAgent(paths, query.agent)
  const source = fileHistorySource(paths)
  const result = await new TeamHistory(source).search(query)
  for (const problem of source.problems)
    await writeLine(context.output.stderr, `agent-teams search: ${problem} (skipped)`)
  if (options.json) {
    for (const group of result.groups)
      for (const hit of group.hits) await writeLine(context.output.stdout, JSON.stringify(hit))
    return 0
  }
  if (result.total === 0) {
    await writeLine(context.output.stdout, `Nothing found in ${paths.workspace}.`)
    return 0
  }
  const shown = result.groups.reduce((sum, group) => sum + group.hits.length, 0)
  for (const group of result.groups) {
    await writeLine(
      context.output.stdout,
      `${oneLine(group.agent)} (${group.total} match${group.total === 1 ? '' : 'es'})`,
    )
    for (const hit of group.hits)
      await writeLine(
        context.output.stdout,
        `  ${placeOf(hit)} · ${oneLine(hit.sender)} · ${formatSecondsUtc(hit.at)}\n    ${oneLine(marked(hit))}`,
      )
  }
  if (shown < result.total)
    await writeLine(
      context.output.stdout,
      `${shown} of ${result.total} matches shown; narrow the search or raise --limit.`,
    )
  return 0
}

export const exportCommand: Command = async (context) => {
  if (context.positionals.length > 0)
    throw new UsageError(`takes no arguments (got "${context.positionals.join(' ')}")`)
  const { options } = context
  const parsed = exportRequestSchema.safeParse({ agent: options.agent, format: options.format })
  if (!parsed.success)
    throw new UsageError(
      options.format === undefined ||
        !(EXPORT_FORMATS as readonly string[]).includes(options.format)
        ? `--format takes ${EXPORT_FORMATS.join(' or ')}`
        : `--agent: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    )
  const paths = new TeamPaths(options.workspace)
  if (parsed.data.agent !== undefined) knownAgent(paths, parsed.data.agent)
  const source = fileHistorySource(paths)
  const text = exportText(source, parsed.data, Roster.read(paths).team_name)
  const stdout = context.output.stdout
  // A file or a pipe gets the export byte for byte; a terminal sees it without obeying it.
  const terminal = (stdout as { isTTY?: boolean }).isTTY === true
  if (options.out === undefined)
    await writeStreamed(text, (chunk) => writeText(stdout, terminal ? visibleText(chunk) : chunk))
  else await writeExportFile(resolve(options.out), text)
  for (const problem of source.problems)
    await writeLine(context.output.stderr, `agent-teams export: ${problem} (skipped)`)
  if (options.out !== undefined)
    await writeLine(context.output.stderr, `Wrote ${resolve(options.out)}.`)
  return 0
}
