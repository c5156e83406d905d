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
