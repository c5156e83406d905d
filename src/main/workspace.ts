import { resolve } from 'node:path'

/**
 * The workspace the app opens: `--workspace DIR` or `--workspace=DIR` on the command line, as
 * the CLI takes it, else the folder the app was started in.
 */
export function resolveWorkspace(argv: readonly string[], cwd: string): string {
  for (const [index, argument] of argv.entries()) {
    if (argument.startsWith('--workspace='))
      return resolve(cwd, argument.slice('--workspace='.length))
    const next = argv[index + 1]
    if (argument === '--workspace' && next !== undefined) return resolve(cwd, next)
  }
  return resolve(cwd)
}
