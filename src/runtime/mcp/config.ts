import { z } from 'zod'
import { isValidServerName, MCP_SERVER_NAME_RULE } from '../../shared/mcp'
import { describeJsonError } from '../roster/json-errors'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'
import { expandVariables } from './variables'

/** A server ready to connect to: every `${VAR}` already replaced. */
export type ServerLaunch =
  | {
      readonly type: 'stdio'
      readonly command: string
      readonly args: readonly string[]
      readonly env: Readonly<Record<string, string>>
    }
  | {
      readonly type: 'http'
      readonly url: string
      readonly headers: Readonly<Record<string, string>>
    }

/** One entry of `.mcp.json` or `.team/mcp.json`, judged on its own. */
export interface ConfiguredServer {
  readonly name: string
  readonly source: 'workspace' | 'team'
  readonly transport: 'stdio' | 'http' | null
  /** Null when the entry is wrong: `problem` says why and what to do. */
  readonly launch: ServerLaunch | null
  /** The same fields as written, each `${VAR}` still a name (what the trust question shows). */
  readonly written: ServerLaunch | null
  readonly problem: string | null
  /** What the UI shows: the command line or the address without its query, no secret. */
  readonly target: string
  /** Environment values and headers, never to be shown (they are cut out of stderr too). */
  readonly secrets: readonly string[]
}

export interface McpConfiguration {
  readonly servers: readonly ConfiguredServer[]
  /** Files that could not be read at all, each with the fix. */
  readonly problems: readonly string[]
}

const MAX_SERVERS = 100

const stringMap = z.record(z.string(), z.string())
const stdioEntry = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'is empty'),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
})
const httpEntry = z.looseObject({
  type: z.literal('http'),
  url: z.string().min(1, 'is empty'),
  headers: stringMap.optional(),
})

/** Reads both files; a wrong file or entry is reported, never thrown. */
export function readMcpConfiguration(paths: TeamPaths, env: NodeJS.ProcessEnv): McpConfiguration {
  const problems: string[] = []
  const servers: ConfiguredServer[] = []
  for (const [source, file] of [
    ['workspace', paths.workspaceMcpServers],
    ['team', paths.mcpServers],
  ] as const) {
    const read = readEntries(file)
    if (read.problem !== null) problems.push(read.problem)
    for (const [name, entry] of read.entries) {
      if (servers.length >= MAX_SERVERS) {
        problems.push(`${file} has more than ${MAX_SERVERS} servers; the rest are ignored.`)
        break
      }
      if (servers.some((server) => server.name === name)) {
        problems.push(
          `"${name}" in ${file} is already defined in .mcp.json; rename one of them (this one is ignored).`,
        )
        continue
      }
      servers.push(judgeEntry(name, source, file, entry, env))
    }
  }
  return { servers, problems }
}

/** The entries of one file, as written (for `.team/mcp.json`'s add and remove). */
export function readEntries(file: string): {
  text: string | null
  entries: [string, unknown][]
  problem: string | null
} {
  let text: string | null
  try {
    text = readRegularTextSync(file, {
      what: 'The MCP server list',
      maxBytes: FILE_CAPS.record,
      remedy: 'Replace it with a JSON file {"mcpServers": {…}}.',
    })
  } catch (error) {
    return { text: null, entries: [], problem: (error as Error).message }
  }
  if (text === null) return { text: null, entries: [], problem: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const where = describeJsonError(text, error as Error)
    return {
      text,
      entries: [],
      problem: `${file} is not valid JSON (line ${where.line}, column ${where.column}: ${where.message}); fix it, and its servers start when the team opens again.`,
    }
  }
  const list = isObject(value) ? value.mcpServers : undefined
  if (!isObject(list))
    return {
      text,
      entries: [],
      problem: `${file} has no "mcpServers" object; write it as {"mcpServers": {"<name>": {"command": "…"}}}.`,
    }
  return { text, entries: Object.entries(list), problem: null }
}

function judgeEntry(
  name: string,
  source: 'workspace' | 'team',
  file: string,
  entry: unknown,
  env: NodeJS.ProcessEnv,
): ConfiguredServer {
  const wrong = (problem: string, transport: 'stdio' | 'http' | null = null): ConfiguredServer => ({
    name: isValidServerName(name) ? name : JSON.stringify(name).slice(0, 40),
    source,
    transport,
    launch: null,
    written: null,
    problem: `${problem} (${file})`,
    target: '',
    secrets: [],
  })
  if (!isValidServerName(name))
    return wrong(
      `The server name ${JSON.stringify(name).slice(0, 40)} is not allowed: use ${MCP_SERVER_NAME_RULE}`,
    )
  if (!isObject(entry)) return wrong(`"${name}" must be an object with "command" or "url"`)
  if (entry.type === 'sse')
    return wrong(`"${name}" uses the SSE transport, which is not supported: use "type": "http"`)
  if (entry.type !== undefined && entry.type !== 'stdio' && entry.type !== 'http')
    return wrong(
      `"${name}" has an unknown "type" (${JSON.stringify(entry.type).slice(0, 40)}): use "stdio" or "http"`,
    )
  if (entry.type === 'http' || (entry.type === undefined && 'url' in entry)) {
    const parsed = httpEntry.safeParse({ type: 'http', ...entry })
    if (!parsed.success) return wrong(`"${name}": ${issues(parsed.error)}`, 'http')
    const expanded = expandAll(env, {
      url: parsed.data.url,
      ...prefixed('header:', parsed.data.headers),
    })
    if ('missing' in expanded) return wrong(`"${name}" uses ${expanded.missing}`, 'http')
    const url = expanded.values.url ?? ''
    let address: URL
    try {
      address = new URL(url)
    } catch {
      return wrong(`"${name}" has a "url" that is not an address`, 'http')
    }
    if (address.protocol !== 'http:' && address.protocol !== 'https:')
      return wrong(`"${name}" has a "url" that is not http(s)`, 'http')
    const headers = unprefixed('header:', expanded.values)
    return {
      name,
      source,
      transport: 'http',
      launch: { type: 'http', url, headers },
      written: { type: 'http', url: parsed.data.url, headers: { ...parsed.data.headers } },
      problem: null,
      // As written (a `${VAR}` stays a name), without the query, which often holds a key.
      target: (parsed.data.url.split('?')[0] ?? '').slice(0, 300),
      secrets: [
        ...Object.values(headers),
        ...[address.search.slice(1), address.password, address.username].filter(Boolean),
      ],
    }
  }
  const parsed = stdioEntry.safeParse(entry)
  if (!parsed.success)
    return wrong(
      'command' in entry
        ? `"${name}": ${issues(parsed.error)}`
        : `"${name}" needs "command" (a program to run), or "type": "http" with "url"`,
      'stdio',
    )
  const args = parsed.data.args ?? []
  const expanded = expandAll(env, {
    command: parsed.data.command,
    ...Object.fromEntries(args.map((arg, index) => [`arg:${index}`, arg])),
    ...prefixed('env:', parsed.data.env),
  })
  if ('missing' in expanded) return wrong(`"${name}" uses ${expanded.missing}`, 'stdio')
  const values = expanded.values
  const launch: ServerLaunch = {
    type: 'stdio',
    command: values.command ?? '',
    args: args.map((_, index) => values[`arg:${index}`] ?? ''),
    env: unprefixed('env:', values),
  }
  return {
    name,
    source,
    transport: 'stdio',
    launch,
    written: {
      type: 'stdio',
      command: parsed.data.command,
      args,
      env: { ...parsed.data.env },
    },
    problem: null,
    // As written: an argument that came from `${VAR}` shows the name, never the value.
    target: [parsed.data.command, ...args].join(' ').slice(0, 300),
    secrets: [
      ...Object.values(launch.env),
      ...launch.args.filter((arg, index) => arg !== args[index]),
    ],
  }
}

function expandAll(
  env: NodeJS.ProcessEnv,
  fields: Record<string, string>,
): { values: Record<string, string> } | { missing: string } {
  const values: Record<string, string> = {}
  for (const [key, text] of Object.entries(fields)) {
    const result = expandVariables(text, env)
    if ('missing' in result)
      return {
        missing: `\${${result.missing}}, which is not set in your environment: set it, or write \${${result.missing}:-default}`,
      }
    values[key] = result.value
  }
  return { values }
}

function prefixed(prefix: string, map: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [prefix + key, value]))
}

function unprefixed(prefix: string, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  )
}

function issues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || 'entry'} ${issue.message}`)
    .join('; ')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
