import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk'
import { TeamError } from '../../../shared/errors'
import { holdSandbox } from '../../mcp/sandboxed-launch'
import type { BashSandbox, SandboxedCommand, SandboxPolicy } from '../../tools/bash-sandbox'

/**
 * The script the sandbox runs: the SDK's command line comes in the environment (AT_CMD,
 * AT_ARGC, AT_ARG_<i>), because the sandbox's wrap is made (asynchronously) before the SDK asks,
 * synchronously, for its process. `eval` sees only fixed variable names, never their values.
 * NO_PROXY is dropped so that a model endpoint on this machine is reached through the sandbox's
 * proxy (which allows only the endpoint's host), not inside the sandbox's own empty network.
 */
const LAUNCHER = [
  'unset NO_PROXY no_proxy',
  'set --',
  'i=0',
  'while [ "$i" -lt "$AT_ARGC" ]; do eval "set -- \\"\\$@\\" \\"\\$AT_ARG_$i\\""; i=$((i+1)); done',
  'unset AT_ARGC',
  'exec "$AT_CMD" "$@"',
].join('\n')

/** A Claude Code process's way into the OS sandbox, held while the session runs. */
export interface SandboxedLauncher {
  /** The SDK's `spawnClaudeCodeProcess`: the whole Claude Code process runs in the sandbox. */
  readonly spawn: (options: SpawnOptions) => SpawnedProcess
  /** What the sandbox stopped it from doing, read from its output and the proxy's record. */
  readonly blocked: SandboxedCommand['blocked']
  /**
   * Waits for its process to exit (ending its group after a grace), then ends the hold on the
   * sandbox: its temporary folder and network list go only with it.
   */
  release(): Promise<void>
}

/** How long a Claude Code process may take to exit once its session is closed. */
const EXIT_GRACE_MS = 3000

/**
 * Wraps Claude Code whole (its Write and Read tools, its Bash, and anything they start) in the
 * OS sandbox with `policy`: the same rights as a built-in teammate's bash, plus its own config
 * folder. There is no unsandboxed fallback: where this machine has no sandbox, the engine is
 * refused with the reason.
 */
export async function sandboxedLauncher(
  sandbox: BashSandbox,
  policy: SandboxPolicy,
  started: (process: LaunchedProcess) => void = () => undefined,
): Promise<SandboxedLauncher> {
  const held = await holdSandbox(sandbox)
  if (!held.status.available) {
    held.release()
    throw new TeamError(
      'sandbox-unavailable',
      `A Claude Code teammate runs only inside the OS sandbox, and there is none here: ${held.status.reason ?? 'unavailable'}. Install what it names, or use the built-in engine.`,
    )
  }
  let wrapped: SandboxedCommand
  try {
    wrapped = await sandbox.wrap(LAUNCHER, policy, '/bin/bash')
  } catch (error) {
    held.release()
    throw error
  }
  let released = false
  let launched: { child: ReturnType<typeof spawn>; record: LaunchedProcess } | null = null
  return {
    spawn: (options) => {
      const env: NodeJS.ProcessEnv = {
        ...options.env,
        AT_CMD: options.command,
        AT_ARGC: String(options.args.length),
      }
      options.args.forEach((arg, index) => {
        env[`AT_ARG_${index}`] = arg
      })
      // Its own process group: an app killed outright leaves it behind, and the next start
      // ends the whole group (the sandbox dies with its parent) before it reads its log.
      const child = spawn(wrapped.launch.file, [...wrapped.launch.args], {
        cwd: options.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        signal: options.signal,
        detached: true,
      })
      if (child.pid !== undefined) {
        const record = { pid: child.pid, start: processStart(child.pid) }
        launched = { child, record }
        started(record)
      }
      return child
    },
    blocked: (output) => wrapped.blocked(output),
    release: async () => {
      if (released) return
      released = true
      if (launched !== null) {
        const { child, record } = launched
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
          await Promise.race([exited, sleep(EXIT_GRACE_MS)])
        }
        killGroup(record)
      }
      wrapped.dispose()
      held.release()
    },
  }
}

/** A started Claude Code process, as the app records it to end it after a crash of its own. */
export interface LaunchedProcess {
  readonly pid: number
  /** The kernel's start time of the process (Linux), so that a reused pid is not ended. */
  readonly start: string | null
}

/**
 * The kernel's start time of `pid` (field 22 of /proc/<pid>/stat) with this boot's id, or null
 * where there is no /proc (then the app never ends a process it recorded: a pid is reused).
 */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 36)
    // The command name, in parentheses, may hold spaces: count fields after its end.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
    return ticks === undefined ? null : `${boot}:${ticks}`
  } catch {
    return null
  }
}

/** Whether the recorded process still runs, as the same process (never without a start time). */
function alive(launched: LaunchedProcess): boolean {
  if (launched.start === null) return false
  try {
    process.kill(launched.pid, 0)
  } catch {
    return false
  }
  return processStart(launched.pid) === launched.start
}

/** Kills a Claude Code process's group if it is still the one started; false: it was not. */
export function killGroup(launched: LaunchedProcess): boolean {
  if (!alive(launched)) return false
  try {
    process.kill(-launched.pid, 'SIGKILL')
    return true
  } catch {
    return false
  }
}

/**
 * Ends a Claude Code process a previous run of the app left running (the app was killed while
 * it worked), with its whole group, and waits until it is gone: its session log is then final.
 */
export async function endLeftBehind(launched: LaunchedProcess): Promise<void> {
  if (!killGroup(launched)) return
  for (let waited = 0; waited < 5000 && alive(launched); waited += 20) await sleep(20)
}
