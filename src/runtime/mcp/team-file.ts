import { mkdirSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import {
  isValidServerName,
  MCP_SERVER_NAME_RULE,
  mcpServerInputSchema,
  type McpServerInput,
} from '../../shared/mcp'
import { writeFileAtomicSync } from '../fs/durable'
import type { TeamPaths } from '../team/paths'
import { readEntries } from './config'

/**
 * Adds a server to `.team/mcp.json` (the servers the person added in the window or the CLI),
 * in the same format as `.mcp.json`. A name already used in either file is refused.
 */
export function addTeamServer(paths: TeamPaths, name: string, input: McpServerInput): void {
  if (!isValidServerName(name))
    throw new TeamError(
      'invalid-argument',
      `"${name}" is not a server name: use ${MCP_SERVER_NAME_RULE}.`,
    )
  const parsed = mcpServerInputSchema.safeParse(input)
  if (!parsed.success)
    throw new TeamError(
      'invalid-argument',
      `The server is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'server'}: ${issue.message}`).join('; ')}`,
    )
  if (parsed.data.type === 'http' && !/^https?:\/\//i.test(parsed.data.url))
    throw new TeamError('invalid-argument', `The address must start with http:// or https://.`)
  const workspace = readEntries(paths.workspaceMcpServers)
  if (workspace.entries.some(([existing]) => existing === name))
    throw new TeamError('already-exists', `"${name}" is already in .mcp.json; choose another name.`)
  const team = teamEntries(paths)
  if (team.some(([existing]) => existing === name))
    throw new TeamError(
      'already-exists',
      `"${name}" is already added; remove it first to change it.`,
    )
  const { type, ...rest } = parsed.data
  const entry = type === 'http' ? { type, ...rest } : rest
  write(paths, [...team, [name, entry]])
}

/** Removes a server the person added; one from `.mcp.json` is the workspace's to edit. */
export function removeTeamServer(paths: TeamPaths, name: string): void {
  const team = teamEntries(paths)
  if (!team.some(([existing]) => existing === name)) {
    const inWorkspace = readEntries(paths.workspaceMcpServers).entries.some(
      ([existing]) => existing === name,
    )
    throw inWorkspace
      ? new TeamError(
          'not-permitted',
          `"${name}" comes from the workspace's .mcp.json; edit that file to remove it.`,
        )
      : new TeamError('not-found', `There is no MCP server "${name}".`)
  }
  write(
    paths,
    team.filter(([existing]) => existing !== name),
  )
}

function teamEntries(paths: TeamPaths): [string, unknown][] {
  const read = readEntries(paths.mcpServers)
  // Never overwrite a file that cannot be read: the person's servers would be lost.
  if (read.problem !== null) throw new TeamError('file-invalid', read.problem)
  return read.entries
}

function write(paths: TeamPaths, entries: [string, unknown][]): void {
  mkdirSync(paths.root, { recursive: true })
  const file = { v: 1, mcpServers: Object.fromEntries(entries) }
  writeFileAtomicSync(paths.mcpServers, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
}
