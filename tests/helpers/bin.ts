import { spawn, type ChildProcess } from 'node:child_process'
import { BIN, REPO_ROOT, type Finished } from './processes'

/** Variables the CLI reads for its model settings: never inherited from the test's own shell. */
const MODEL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'MODEL_ID', 'XDG_CONFIG_HOME']

export interface BinOptions {
  readonly cwd?: string
  /**
   * Added to the child's environment (after the model variables are removed); an `undefined`
   * value removes a variable. Set XDG_CONFIG_HOME to a temp folder to isolate the settings file.
   */
  readonly env?: Record<string, string | undefined>
  /** The child is killed (SIGKILL) after this long; the result then says `timedOut`. */
  readonly timeoutMs?: number
}

export interface BinFinished extends Finished {
  readonly timedOut: boolean
  /** stdout's non-empty lines. */
  readonly lines: string[]
}

/** A running `agent-teams` command: its process, its output so far, and its end. */
export interface BinRun {
  readonly child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves when it has exited (or was killed at the timeout: `timedOut`). */
  readonly finished: Promise<BinFinished>
}

/**
 * Starts the real `agent-teams` command (bin/agent-teams.mjs) in a child process with a chosen
 * environment, so that no key or settings file of the machine leaks into a test.
 */
export function startAgentTeams(args: readonly string[], options: BinOptions = {}): BinRun {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  for (const name of MODEL_VARIABLES) delete env[name]
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  })
  let stdout = ''
  let stderr = ''
  let timedOut = false
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const finished = new Promise<BinFinished>((resolveRun, reject) => {
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, options.timeoutMs ?? 60_000)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolveRun({
        code,
        stdout,
        stderr,
        pid: child.pid ?? -1,
        timedOut,
        lines: stdout.split('\n').filter((line) => line.trim() !== ''),
      })
    })
  })
  return { child, stdout: () => stdout, stderr: () => stderr, finished }
}

/** Runs the real `agent-teams` command to its end (see `startAgentTeams`). */
export function runAgentTeams(
  args: readonly string[],
  options: BinOptions = {},
): Promise<BinFinished> {
  return startAgentTeams(args, options).finished
}
