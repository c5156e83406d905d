import { resolve } from 'node:path'

/**
 * The workspace to open at start: `--workspace DIR` or `--workspace=DIR` on the command line, as
 * the CLI takes it, resolved against `cwd`. Undefined without one: the window's first-run
 * screen lets the person open a folder.
 */
export function resolveWorkspace(argv: readonly string[], cwd: string): string | undefined {
  for (const [index, argument] of argv.entries()) {
    if (argument.startsWith('--workspace=')) {
      const value = argument.slice('--workspace='.length)
      return value === '' ? undefined : resolve(cwd, value)
    }
    const next = argv[index + 1]
    if (argument === '--workspace' && next !== undefined && !next.startsWith('--'))
      return resolve(cwd, next)
  }
  return undefined
}

/**
 * The folder a launch asks for: `--workspace DIR`, or else a folder given as a plain argument
 * (`agent-teams ~/project`, or a folder dropped on the app's icon). Electron's own arguments
 * come first: the executable, and in development the app's path; Chromium's flags start with
 * `-`. Only a packaged app takes a plain argument, where argv[1] is the person's own.
 */
export function launchFolder(
  argv: readonly string[],
  cwd: string,
  packaged: boolean,
): string | undefined {
  const flagged = resolveWorkspace(argv, cwd)
  if (flagged !== undefined || !packaged) return flagged
  const plain = argv.slice(1).filter((argument) => !argument.startsWith('-'))
  const last = plain.at(-1)
  return last === undefined ? undefined : resolve(cwd, last)
}

/**
 * The folder to open at start: the one the launch names, else the one open when the app last
 * quit, if it still exists (a folder deleted since is no error worth a dialog at start).
 */
export function workspaceAtStart(
  requested: string | undefined,
  saved: string | null,
  exists: (path: string) => boolean,
): string | undefined {
  if (requested !== undefined) return requested
  return saved !== null && exists(saved) ? saved : undefined
}
