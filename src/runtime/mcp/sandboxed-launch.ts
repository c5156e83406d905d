import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { BlockedAction, SandboxStatus } from '../../shared/sandbox'
import {
  appSecretFolders,
  defaultBashSandbox,
  type BashSandbox,
  type SandboxedCommand,
  type SandboxPolicy,
} from '../tools/bash-sandbox'
import { agentSandboxPolicy } from '../sandbox/agent-policy'

/** A stdio server ready to start: every `${VAR}` already replaced. */
export interface StdioLaunch {
  readonly command: string
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>>
}

/** Where a team's stdio servers run, and what they may do there. */
export interface McpSandboxContext {
  readonly workspace: string
  /** The team's `.team/`: read-only to a server, as to bash. */
  readonly teamFolder: string
  /** The hosts a server may reach, read at each start. */
  readonly allowedHosts: () => readonly string[]
  /** Folders no server may read, beside the app's settings folder (the app's config). */
  readonly unreadable?: readonly string[]
  /** Default: the process's own sandbox, shared with bash. */
  readonly sandbox?: BashSandbox
}

/**
 * What a stdio MCP server may do inside the OS sandbox: what an agent working in the workspace
 * may (sandbox/agent-policy.ts): write only in the workspace (and its private temporary
 * folder), never in `.team/` nor in git's config, hooks, the teammates' branches or the app's
 * refs; read nothing of the app's config folder; reach only the team's allowed hosts through
 * the runtime's proxy. Every server's policy is built here, and only here.
 */
export function mcpSandboxPolicy(input: {
  readonly workspace: string
  readonly teamFolder: string
  readonly allowedHosts: readonly string[]
  readonly unreadable?: readonly string[]
}): SandboxPolicy {
  return agentSandboxPolicy({
    workspace: input.workspace,
    teamFolder: input.teamFolder,
    root: input.workspace,
    worktree: null,
    agent: MCP_SERVER_AGENT,
    allowedHosts: input.allowedHosts,
    unreadable: [...appSecretFolders(), ...(input.unreadable ?? [])],
  })
}

/** The policy's name for a server's process: no teammate has its own branch by that name. */
const MCP_SERVER_AGENT = 'mcp-server'

/** A started stdio server's process, with its sandbox (when there is one). */
export interface StdioServerProcess {
  readonly transport: StdioClientTransport
  /** Whether it runs in the OS sandbox (false where this machine has none). */
  readonly sandboxed: boolean
  /** What the sandbox stopped it from doing since the last look (`said`: its stderr and answer). */
  newlyBlocked(said: string): BlockedAction[]
  /** Reads the team's allowed hosts again (before each call, as bash reads them per command). */
  followHosts(): void
  /** Ends its hold on the sandbox and removes its temporary folder; once it has exited. */
  release(): void
}

/**
 * The transport of a stdio server, wrapped whole in the OS sandbox where there is one: its
 * process is `/bin/bash -c <the sandbox's wrap of "exec command args…">`. The sandbox's proxies
 * stay up for as long as the server runs (its hold on the sandbox ends with `release`). Its
 * environment is the MCP SDK's safe default (PATH, HOME, USER, …) plus its own `env`: never the
 * app's API key, unless its configuration names it and the person agreed to that.
 */
export async function startStdioServer(
  launch: StdioLaunch,
  context: McpSandboxContext,
): Promise<StdioServerProcess> {
  const sandbox = context.sandbox ?? defaultBashSandbox
  const held = await holdSandbox(sandbox)
  if (!held.status.available) {
    held.release()
    return {
      transport: transport(launch.command, launch.args, launch.env, context.workspace),
      sandboxed: false,
      newlyBlocked: () => [],
      followHosts: () => undefined,
      release: () => undefined,
    }
  }
  let wrapped: SandboxedCommand
  try {
    wrapped = await sandbox.wrap(
      ['exec', launch.command, ...launch.args].map(quote).join(' '),
      mcpSandboxPolicy({
        workspace: context.workspace,
        teamFolder: context.teamFolder,
        allowedHosts: context.allowedHosts(),
        unreadable: context.unreadable,
      }),
      '/bin/bash',
    )
  } catch (error) {
    held.release()
    throw error
  }
  const told = new Set<string>()
  let released = false
  return {
    transport: transport(wrapped.launch.file, wrapped.launch.args, launch.env, context.workspace),
    sandboxed: true,
    newlyBlocked: (said) =>
      // Node names the error in lower case ("EROFS: read-only file system, open '/x'").
      wrapped
        .blocked(said.replace(/read-only file system/gi, 'Read-only file system'))
        .filter((action) => {
          const key =
            action.kind === 'blocked-write' ? `w:${action.path}` : `n:${action.host}:${action.port}`
          if (told.has(key)) return false
          told.add(key)
          return true
        }),
    followHosts: () => wrapped.allowHosts(context.allowedHosts()),
    release: () => {
      if (released) return
      released = true
      wrapped.dispose()
      held.release()
    },
  }
}

function transport(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
): StdioClientTransport {
  // Merged over the SDK's safe defaults (PATH, HOME, USER, …): never the app's API key.
  return new StdioClientTransport({
    command,
    args: [...args],
    env: { ...env },
    cwd,
    stderr: 'pipe',
  })
}

/** Holds the sandbox (its proxies running) until `release`. */
export function holdSandbox(
  sandbox: BashSandbox,
): Promise<{ status: SandboxStatus; release: () => void }> {
  return new Promise((resolve, reject) => {
    let release: () => void = () => undefined
    const ended = new Promise<void>((done) => {
      release = done
    })
    sandbox
      .use(async (status) => {
        resolve({ status, release })
        await ended
      })
      .catch(reject)
  })
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
