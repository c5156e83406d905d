import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

export const REPO_ROOT = resolve(import.meta.dirname, '../..')
export const BIN = resolve(REPO_ROOT, 'bin/agent-teams.mjs')

export interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly pid: number
}

/** Runs a program to its end, collecting its output. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; input?: string } = {},
): Promise<Finished> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolveRun({ code, stdout, stderr, pid: child.pid ?? -1 }))
    // A child that exits without reading its input closes the pipe first: that EPIPE is not a
    // failure of the test (its exit code and output say what happened).
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** Runs the real `agent-teams` command (bin/agent-teams.mjs) in a child process. */
export function runBin(args: readonly string[], options: { cwd?: string } = {}): Promise<Finished> {
  return run(process.execPath, [BIN, ...args], options)
}

/** The pid of a process that has exited (and been reaped): no process has it now. */
export async function deadPid(): Promise<number> {
  const finished = await run(process.execPath, ['-e', ''])
  return finished.pid
}
