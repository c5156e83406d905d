import { join } from 'node:path'
import { z } from 'zod'
import type { BlockedAction } from '../../shared/sandbox'
import type { BashResult } from './bash'
import {
  DEFAULT_BASH_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_CHARACTERS,
  refusedCommandReason,
  runBash,
} from './bash'
import { pidNamespacesAvailable } from './bash-launch'
import {
  appSecretFolders,
  defaultBashSandbox,
  probeSandbox,
  type BashSandbox,
  type SandboxedCommand,
  type SandboxPolicy,
} from './bash-sandbox'
import { agentSandboxPolicy } from '../sandbox/agent-policy'
import { resolveBashShell, type BashShell } from './shell'
import type { Tool, ToolContext } from './types'
import { defineTool, ToolFailure } from './types'

/** Secrets of the app itself that a command has no business reading (and echoing to a model). */
const HIDDEN_ENVIRONMENT = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']

/** The person's answer to a command that would run outside the sandbox. */
export interface BashApproval {
  readonly approved: boolean
  /** Why not, for the model (a denial's reason). */
  readonly reason?: string
}

/**
 * Where the "Needs you" queue connects to bash. Both are optional: without them a blocked
 * action is only told to the model, and where there is no sandbox commands run as before,
 * behind the blocklist.
 */
export interface BashSandboxHooks {
  /** The sandbox stopped a command of `agent` from writing or connecting: ask the person. */
  readonly onBlocked?: (agent: string, actions: readonly BlockedAction[]) => void
  /**
   * There is no sandbox on this machine (`reason`): every command waits for this answer, and
   * runs unsandboxed only when approved. `signal` aborts when the agent is stopped.
   */
  readonly approveUnsandboxed?: (
    request: { readonly agent: string; readonly command: string; readonly reason: string },
    signal: AbortSignal,
  ) => Promise<BashApproval>
}

/** A team's sandbox rules for bash. */
export interface BashSandboxOptions {
  /** Default: the process's own (bash-sandbox.ts). */
  readonly sandbox?: BashSandbox
  /** The team's `.team/` folder, kept read-only when a workspace (a worktree) is elsewhere. */
  readonly teamFolder?: string
  /** The hosts commands may reach, asked at each call (the team's `.team/sandbox.json`). */
  readonly allowedHosts?: () => readonly string[]
  /** Folders no command may read, beside the app's settings folder. */
  readonly unreadable?: readonly string[]
  /**
   * What the calling agent's command may write, from the app's own records (the host gives a
   * teammate in a worktree its recorded git folders: sandbox/agent-policy.ts). Default: the
   * workspace policy for `context.workspace`.
   */
  readonly writableFor?: (context: ToolContext) => Pick<SandboxPolicy, 'writable' | 'readOnly'>
  readonly hooks?: BashSandboxHooks
}

export interface BashToolOptions {
  readonly timeoutMs?: number
  readonly maxOutputCharacters?: number
  /** Which bash to run, asked at each call; tests inject another platform's answer. */
  readonly resolveShell?: () => BashShell
  readonly sandbox?: BashSandboxOptions
}

/** The bash tool with its limits; `bashTool` has the defaults (120 s, 50,000 characters). */
export function createBashTool(options: BashToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  const sandboxOptions = options.sandbox ?? {}
  return defineTool(
    {
      name: 'bash',
      description:
        'Run a shell command in your workspace folder with /bin/bash. stdout and stderr come ' +
        `back together, capped at ${options.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS} ` +
        `characters; the command is killed after ${formatSeconds(timeoutMs)} s. Processes it ` +
        'leaves running in the background are stopped when it ends. ' +
        (probeSandbox().available
          ? 'It runs in an OS sandbox: it can write only in your workspace and in $TMPDIR ' +
            '(never in .team/), and reach only the hosts the team allows; what is blocked ' +
            'is reported, and the person decides.'
          : "It runs with the user's own rights, so keep to the workspace. " +
            (pidNamespacesAvailable()
              ? 'It runs in a PID namespace of its own: everything it starts ends with it.'
              : 'Processes detached with setsid or daemons may outlive it; do not start them.')),
      input: z.object({ command: z.string().min(1) }),
    },
    async (input, context) => {
      // The blocklist stays a first line: inside the sandbox `rm -rf /` could still empty the
      // workspace, which is writable.
      const reason = refusedCommandReason(input.command)
      if (reason !== null) {
        throw new ToolFailure(
          `Command refused by the safety guard: ${reason}. Nothing was run; work inside the ` +
            'workspace instead.',
        )
      }
      const { result, blocked } = await runSandboxedCommand(input.command, context, {
        timeoutMs,
        maxOutputCharacters: options.maxOutputCharacters,
        resolveShell: options.resolveShell,
        sandbox: sandboxOptions,
      })
      const content = withBlockedNote(describeBashResult(result, timeoutMs), blocked)
      if (isFailure(result)) throw new ToolFailure(content)
      return content
    },
  )
}

/** How one command runs: its limits, its shell and the team's sandbox rules. */
export interface SandboxedRunOptions {
  readonly timeoutMs: number
  readonly maxOutputCharacters?: number
  /** Keep the output's end rather than its start when it is over the cap (a test's summary). */
  readonly keepTail?: boolean
  readonly resolveShell?: () => BashShell
  readonly sandbox: BashSandboxOptions
}

/**
 * Runs `command` as bash does for `context.agent`: inside the OS sandbox with that agent's
 * policy where there is one; where there is none, only once the person approved it (the
 * `approveUnsandboxed` hook), behind nothing else. What the sandbox blocked is told to the
 * hooks and returned. A refusal (no shell, the person said no) is a `ToolFailure`.
 */
export async function runSandboxedCommand(
  command: string,
  context: ToolContext,
  options: SandboxedRunOptions,
): Promise<{ result: BashResult; blocked: BlockedAction[] }> {
  const sandboxOptions = options.sandbox
  const sandbox = sandboxOptions.sandbox ?? defaultBashSandbox
  const shell = (options.resolveShell ?? resolveBashShell)()
  if (!shell.ok) throw new ToolFailure(shell.reason)
  return sandbox.use(async (status) => {
    let wrapped: SandboxedCommand | null = null
    if (status.available) {
      wrapped = await sandbox.wrap(command, policyFor(context, sandboxOptions), shell.file)
    } else {
      await awaitApproval(sandboxOptions.hooks, command, status.reason, context)
    }
    try {
      const result = await runBash(command, {
        cwd: context.workspace,
        timeoutMs: options.timeoutMs,
        maxOutputCharacters: options.maxOutputCharacters,
        keepTail: options.keepTail,
        signal: context.signal,
        env: withoutSecrets(process.env),
        shell: shell.file,
        launch: wrapped?.launch,
      })
      const blocked = wrapped?.blocked(result.output) ?? []
      if (blocked.length > 0) sandboxOptions.hooks?.onBlocked?.(context.agent, blocked)
      return { result, blocked }
    } finally {
      wrapped?.dispose()
    }
  })
}

/** The command's policy: its folders from the host's records, hosts and secrets from the team. */
function policyFor(context: ToolContext, options: BashSandboxOptions): SandboxPolicy {
  const unreadable = [...appSecretFolders(), ...(options.unreadable ?? [])]
  const allowedHosts = options.allowedHosts?.() ?? []
  const folders =
    options.writableFor?.(context) ??
    agentSandboxPolicy({
      workspace: context.workspace,
      teamFolder: options.teamFolder ?? join(context.workspace, '.team'),
      root: context.workspace,
      worktree: null,
      agent: context.agent,
      allowedHosts,
      unreadable,
    })
  return { writable: folders.writable, readOnly: folders.readOnly, unreadable, allowedHosts }
}

async function awaitApproval(
  hooks: BashSandboxHooks | undefined,
  command: string,
  reason: string,
  context: ToolContext,
): Promise<void> {
  if (hooks?.approveUnsandboxed === undefined) return
  const answer = await hooks.approveUnsandboxed(
    { agent: context.agent, command, reason },
    context.signal,
  )
  if (!answer.approved)
    throw new ToolFailure(
      `The person did not approve this command, so it was not run${answer.reason ? `: ${answer.reason}` : '.'}`,
    )
}

function withoutSecrets(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...environment }
  for (const name of HIDDEN_ENVIRONMENT) delete copy[name]
  return copy
}

/** Tells the model what the sandbox stopped, so it does not retry blindly. */
function withBlockedNote(content: string, blocked: readonly BlockedAction[]): string {
  if (blocked.length === 0) return content
  const items = blocked.map((action) =>
    action.kind === 'blocked-write'
      ? `writing ${action.path}`
      : `connecting to ${action.host}${action.port === null ? '' : `:${action.port}`}`,
  )
  const note =
    `[sandbox blocked: ${items.join('; ')}. Writes are allowed only in your workspace and ` +
    '$TMPDIR, never in .team/; network only to the hosts the team allows. The person has ' +
    'been told; work within these limits or ask them.]'
  return content.endsWith('\n') ? `${content}${note}` : `${content}\n${note}`
}

/** The output, or "(no output)", and a trailer line when the command did not simply succeed. */
export function describeBashResult(result: BashResult, timeoutMs: number): string {
  const output = result.output === '' ? '(no output)' : result.output
  const trailer = bashTrailer(result, timeoutMs)
  if (trailer === null) return output
  return output.endsWith('\n') ? `${output}${trailer}` : `${output}\n${trailer}`
}

function bashTrailer(result: BashResult, timeoutMs: number): string | null {
  if (result.aborted) return '[stopped]'
  if (result.timedOut) {
    return `[timed out after ${formatSeconds(timeoutMs)} s; process group killed]`
  }
  if (result.signal !== null) return `[killed by ${result.signal}]`
  if (result.exitCode !== 0) return `[exit code ${result.exitCode}]`
  return null
}

function isFailure(result: BashResult): boolean {
  return result.aborted || result.timedOut || result.exitCode !== 0
}

function formatSeconds(milliseconds: number): string {
  return String(Math.round((milliseconds / 1000) * 10) / 10)
}
