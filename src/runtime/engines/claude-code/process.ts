import { spawn } from 'node:child_process'
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
  /** Ends the hold on the sandbox; once the process has exited. */
  release(): void
}

/**
 * Wraps Claude Code whole (its Write and Read tools, its Bash, and anything they start) in the
 * OS sandbox with `policy`: the same rights as a built-in teammate's bash, plus its own config
 * folder. There is no unsandboxed fallback: where this machine has no sandbox, the engine is
 * refused with the reason.
 */
export async function sandboxedLauncher(
  sandbox: BashSandbox,
  policy: SandboxPolicy,
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
      return spawn(wrapped.launch.file, [...wrapped.launch.args], {
        cwd: options.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        signal: options.signal,
      })
    },
    blocked: (output) => wrapped.blocked(output),
    release: () => {
      if (released) return
      released = true
      wrapped.dispose()
      held.release()
    },
  }
}
