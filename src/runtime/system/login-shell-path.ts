import { spawn } from 'node:child_process'
import { userInfo } from 'node:os'
import { delimiter } from 'node:path'

/** How long the login shell may take to start (rc files can be slow) before we give up. */
export const LOGIN_SHELL_TIMEOUT_MS = 5000

const START = '__AGENT_TEAMS_PATH_START__'
const END = '__AGENT_TEAMS_PATH_END__'
/** Prints PATH between markers, so that whatever the rc files print around it is ignored. */
const PRINT_PATH = `printf '%s' '${START}'; printenv PATH; printf '%s' '${END}'`

export type LoginShellPath =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string }

/**
 * Whether to ask the login shell for PATH. A dock, Finder or desktop-launcher start gives the
 * app launchd's or the session's bare PATH (/usr/bin:/bin:…), without Homebrew, nvm or
 * ~/.local/bin, so agents' `node`, `git` and `npm` are not found. The rule: ask on macOS and
 * Linux unless the app was started from a terminal, which sets TERM and whose PATH is already
 * the user's; never on Windows, where GUI apps get the full PATH from the registry.
 */
export function shouldAskLoginShell(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform === 'win32') return false
  return env.TERM === undefined || env.TERM === ''
}

/** The PATH printed between the markers, or null when the shell printed none. */
export function parseLoginShellOutput(output: string): string | null {
  const start = output.lastIndexOf(START)
  const end = output.indexOf(END, start)
  if (start === -1 || end === -1) return null
  const path = output.slice(start + START.length, end).trim()
  return path === '' ? null : path
}

/** The login shell's entries first, then those only the app had (an AppImage's own folder). */
export function mergePaths(loginPath: string, currentPath: string | undefined): string {
  const entries = [...loginPath.split(delimiter), ...(currentPath ?? '').split(delimiter)]
  return [...new Set(entries.filter((entry) => entry !== ''))].join(delimiter)
}

/**
 * Runs `shell -ilc` (interactive and login, so both .zprofile/.bash_profile and .zshrc/.bashrc
 * are read, as a terminal would) with stdin closed, in its own process group so that a timeout
 * kills whatever the rc files started.
 */
export function readLoginShellPath(
  shell: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = LOGIN_SHELL_TIMEOUT_MS,
): Promise<LoginShellPath> {
  return new Promise((resolve) => {
    let output = ''
    let settled = false
    const child = spawn(shell, ['-ilc', PRINT_PATH], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const finish = (result: LoginShellPath): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // ESRCH: the group is gone already.
      }
      resolve(result)
    }
    const timer = setTimeout(
      () => finish({ ok: false, reason: `${shell} did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    )
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      output += chunk
      // Done once PATH is out: an rc file may leave a background job holding the pipe open.
      const path = parseLoginShellOutput(output)
      if (path !== null) finish({ ok: true, path })
    })
    child.once('error', (error) => finish({ ok: false, reason: `${shell}: ${error.message}` }))
    child.once('close', (code) => {
      const path = parseLoginShellOutput(output)
      finish(
        path !== null
          ? { ok: true, path }
          : { ok: false, reason: `${shell} printed no PATH (exit code ${code})` },
      )
    })
  })
}

/** The account's shell from the user database; null where there is no entry (a container). */
function accountShell(): string | null {
  try {
    return userInfo().shell
  } catch {
    return null
  }
}

export interface AdoptOptions {
  readonly platform?: NodeJS.Platform
  readonly timeoutMs?: number
  readonly log?: (message: string) => void
}

/**
 * Sets `env.PATH` to the login shell's PATH (merged with the current one) when the app was
 * started outside a terminal, so that agents' bash finds the user's tools; keeps the current
 * PATH, and says why, when the shell cannot tell. Resolves with what it did.
 */
export async function adoptLoginShellPath(
  env: NodeJS.ProcessEnv,
  options: AdoptOptions = {},
): Promise<LoginShellPath | null> {
  const platform = options.platform ?? process.platform
  if (!shouldAskLoginShell(platform, env)) return null
  const shell = env.SHELL || accountShell() || '/bin/sh'
  const result = await readLoginShellPath(shell, env, options.timeoutMs)
  const log = options.log ?? ((message: string) => console.warn(`[path] ${message}`))
  if (result.ok) env.PATH = mergePaths(result.path, env.PATH)
  else log(`${result.reason}; agents' bash keeps PATH=${env.PATH ?? ''}`)
  return result
}
