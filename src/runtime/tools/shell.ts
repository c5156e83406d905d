import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { win32 } from 'node:path'

/** The shell the bash tool runs commands with, or why there is none. */
export type BashShell =
  { readonly ok: true; readonly file: string } | { readonly ok: false; readonly reason: string }

export interface ShellLookup {
  readonly platform: NodeJS.Platform
  readonly env: NodeJS.ProcessEnv
  readonly exists: (path: string) => boolean
}

const defaultLookup = (): ShellLookup => ({
  platform: process.platform,
  env: process.env,
  exists: existsSync,
})

/**
 * `/bin/bash` on macOS and Linux. On Windows, Git for Windows' bash.exe: in its standard
 * install folders (for all users, 32-bit, per user), else found through PATH as Git's own
 * installer puts it there (`Git\cmd` with git.exe, or `Git\bin`). Looked up at each call, so
 * installing Git while the app runs is enough. Windows' own System32\bash.exe is skipped: it
 * is WSL's launcher, which runs the command in a Linux VM outside the workspace's paths.
 */
export function resolveBashShell(lookup: ShellLookup = defaultLookup()): BashShell {
  if (lookup.platform !== 'win32') return { ok: true, file: '/bin/bash' }
  const candidates = windowsCandidates(lookup.env)
  const found = candidates.find((candidate) => lookup.exists(candidate))
  if (found !== undefined) return { ok: true, file: found }
  return {
    ok: false,
    reason:
      'The bash tool needs Git for Windows, which provides bash.exe, and it was not found ' +
      `(looked in ${candidates.length > 0 ? candidates.join(', ') : 'no folder: neither Program Files nor PATH is set'}). ` +
      'Ask the person to install it from https://git-scm.com/download/win and restart Agent ' +
      'Teams; the file tools work meanwhile.',
  }
}

/** Environment names are case-insensitive on Windows (`Path`, `PATH`); an object is not. */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name.toLowerCase())
  const value = key === undefined ? undefined : env[key]
  return value === undefined || value === '' ? undefined : value
}

function windowsCandidates(env: NodeJS.ProcessEnv): string[] {
  const installs = ['ProgramFiles', 'ProgramW6432', 'ProgramFiles(x86)']
    .map((name) => variable(env, name))
    .filter((folder): folder is string => folder !== undefined)
    .map((folder) => win32.join(folder, 'Git', 'bin', 'bash.exe'))
  const localAppData = variable(env, 'LOCALAPPDATA')
  if (localAppData !== undefined)
    installs.push(win32.join(localAppData, 'Programs', 'Git', 'bin', 'bash.exe'))
  const fromPath = (variable(env, 'PATH') ?? '')
    .split(';')
    .map((folder) => folder.trim().replace(/^"(.*)"$/, '$1'))
    .filter((folder) => folder !== '' && !isSystemFolder(folder))
    .flatMap((folder) => {
      const name = win32.basename(folder).toLowerCase()
      // Git\cmd and Git\bin (and Git\usr\bin) are what Git's installer adds to PATH.
      const gitRoot = name === 'cmd' || name === 'bin' ? win32.dirname(folder) : undefined
      return [
        win32.join(folder, 'bash.exe'),
        ...(gitRoot === undefined ? [] : [win32.join(gitRoot, 'bin', 'bash.exe')]),
      ]
    })
  return [...new Set([...installs, ...fromPath])]
}

/** C:\Windows\System32 and the like: their bash.exe is WSL's. */
function isSystemFolder(folder: string): boolean {
  return /\\windows\\(system32|sysnative|syswow64)\\?$/i.test(win32.normalize(folder))
}

/** Starts a program and lets it run; a recorder in tests. */
export type RunProgram = (file: string, args: readonly string[]) => void

/** Not waited for: the kill runs after every command, and main's event loop must not stall. */
const startDetached: RunProgram = (file, args) => {
  const child = spawn(file, args, { stdio: 'ignore', windowsHide: true })
  child.once('error', () => undefined)
  child.unref()
}

/**
 * Kills a command and everything it started. On macOS and Linux that is its process group
 * (bash runs as a group leader). Windows has no process groups to signal, and a negative pid
 * kills nothing there: `taskkill /T` ends the process tree instead.
 */
export function killProcessTree(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  run: RunProgram = startDetached,
): void {
  if (platform === 'win32') {
    run('taskkill', ['/pid', String(pid), '/T', '/F'])
    return
  }
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: the whole group is already gone.
  }
}
