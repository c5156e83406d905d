import { TeamError } from '../shared/errors'
import type { McpServerInput, McpServerView, McpState } from '../shared/mcp'
import { McpServers } from '../runtime/mcp/servers'
import { addTeamServer, removeTeamServer } from '../runtime/mcp/team-file'
import { TeamPaths } from '../runtime/team/paths'
import { readTeamSandbox } from '../runtime/sandbox/team-hosts'
import { defaultBashSandbox } from '../runtime/tools/bash-sandbox'
import { inspectTrust } from '../runtime/trust/workspace-trust'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'
import { trustStoreFor } from './workspace-trust'

type Command = (context: CommandContext) => Promise<number>

/** `agent-teams mcp list|add|remove`: the team's MCP servers. */
export const mcp: Command = async (context) => {
  const [verb, ...rest] = context.positionals
  const sub = { ...context, positionals: rest }
  if (verb === 'list') return list(sub)
  if (verb === 'add') return add(sub)
  if (verb === 'remove') return remove(sub)
  throw new UsageError('expected "mcp list", "mcp add" or "mcp remove"')
}

/** The workspace's trust as a team opening now would find it (`--trust-workspace`: trusted). */
function trustOf(context: CommandContext): ReturnType<typeof inspectTrust> {
  return inspectTrust(
    new TeamPaths(context.options.workspace),
    { store: trustStoreFor(), forRun: context.options.trustWorkspace },
    process.env,
  )
}

/**
 * Lists the servers; trusted ones are started once, as the team would start them, and shown
 * with their tools, or their failure and the tail of their stderr.
 */
const list: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('mcp list takes no arguments')
  const paths = new TeamPaths(context.options.workspace)
  const trust = trustOf(context)
  const servers = new McpServers(
    paths,
    // A probe: one attempt each, no restart.
    { policy: { restartDelaysMs: [], connectTimeoutMs: 15_000 } },
    trust,
    {
      stdio: {
        workspace: paths.workspace,
        teamFolder: paths.root,
        allowedHosts: () => (trust.isTrusted() ? readTeamSandbox(paths).allowedHosts : []),
      },
    },
    () => undefined,
  )
  let state: McpState
  try {
    servers.open()
    await servers.whenStarted(new AbortController().signal)
    state = servers.state()
  } finally {
    await servers.close()
    // The sandbox's proxies would keep this process alive until their idle stop.
    await defaultBashSandbox.close()
  }
  if (context.options.json) {
    await writeLine(context.output.stdout, JSON.stringify(state))
    return 0
  }
  const lines: string[] = [...state.problems.map((problem) => `! ${oneLine(problem)}`)]
  if (state.servers.length === 0 && state.problems.length === 0)
    lines.push(
      `No MCP servers in ${paths.workspace} (.mcp.json, or add one with "agent-teams mcp add").`,
    )
  if (!trust.isTrusted() && state.servers.length > 0)
    lines.push(
      'Not started: this workspace is not trusted yet. See what it grants with "agent-teams trust"; trust it with "agent-teams trust --yes", or run "mcp list --trust-workspace".',
    )
  for (const server of state.servers) lines.push(...describeServer(server))
  await writeLine(context.output.stdout, lines.join('\n'))
  return state.servers.some((server) => server.status === 'failed' || server.status === 'invalid')
    ? 1
    : 0
}

function describeServer(server: McpServerView): string[] {
  const from = server.source === 'workspace' ? '.mcp.json' : '.team/mcp.json'
  const state =
    server.status === 'running'
      ? `running · ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}${server.tools.length > 0 ? `: ${server.tools.map(oneLine).join(', ')}` : ''}`
      : `${server.status}${server.detail ? ` — ${oneLine(server.detail)}` : ''}`
  // A server's name, command and output are the repository's words: one line each, shown.
  return [
    `${oneLine(server.name)} (${server.transport ?? 'invalid'}, ${from}): ${state}`,
    ...(server.target ? [`    ${oneLine(server.target)}`] : []),
    ...server.stderrTail.slice(-5).map((line) => `    stderr: ${oneLine(line)}`),
  ]
}

/**
 * `mcp add <name> --url URL [--header "K: V"]…` or `mcp add <name> [--env K=V]… -- <command>
 * [args…]`: into `.team/mcp.json`. The person's own addition keeps the workspace trusted.
 */
const add: Command = async (context) => {
  const [name, command, ...args] = context.positionals
  if (name === undefined) throw new UsageError('expected <name> and a command (after --) or --url')
  let input: McpServerInput
  if (context.options.url !== undefined) {
    if (command !== undefined) throw new UsageError('give either --url or a command, not both')
    input = {
      type: 'http',
      url: context.options.url,
      headers: pairs(context.options.header, ':', '--header "Name: value"'),
    }
  } else {
    if (command === undefined)
      throw new UsageError(
        'expected the server\'s command after "--" (e.g. mcp add files -- npx -y server), or --url',
      )
    input = {
      type: 'stdio',
      command,
      args,
      env: pairs(context.options.env, '=', '--env NAME=value'),
    }
  }
  await keepingTrust(context, () =>
    addTeamServer(new TeamPaths(context.options.workspace), name, input),
  )
  await writeLine(
    context.output.stdout,
    `Added the MCP server ${name} to .team/mcp.json; a running team starts it when the team is opened again.`,
  )
  return 0
}

const remove: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  const name = context.positionals[0] ?? ''
  await keepingTrust(context, () =>
    removeTeamServer(new TeamPaths(context.options.workspace), name),
  )
  await writeLine(context.output.stdout, `Removed the MCP server ${name} from .team/mcp.json.`)
  return 0
}

/** A change the person makes keeps a trusted workspace trusted (a fresh one is the app's). */
async function keepingTrust(context: CommandContext, change: () => void): Promise<void> {
  trustOf({ ...context, options: { ...context.options, trustWorkspace: false } }).keep(change)
}

function pairs(
  values: readonly string[] | undefined,
  separator: string,
  form: string,
): Record<string, string> {
  const result: Record<string, string> = {}
  for (const value of values ?? []) {
    const at = value.indexOf(separator)
    if (at <= 0) throw new UsageError(`write it as ${form}, not "${value}"`)
    const key = value.slice(0, at).trim()
    if (Object.hasOwn(result, key))
      throw new TeamError('invalid-argument', `${key} is given twice.`)
    result[key] = value.slice(at + 1).trim()
  }
  return result
}
