import { posix } from 'node:path'
import picomatch from 'picomatch'

/**
 * "Approve always" patterns. A bash pattern is a command's leading words (`npm test`, `git
 * status`); it allows a later command that starts with the same words and is one simple command:
 * anything that can chain, substitute or redirect (`;`, `&&`, `|`, `$(`, backquotes, `>`, a
 * newline…) always asks again, so `npm test; rm -rf ~` never rides on an approval of `npm test`.
 * A write pattern is a folder (`src/**`) or, for a file at the top, the file itself.
 */

/** Characters that make a command more than one simple command, or redirect it. */
const SHELL_CONTROL = /[;&|<>`$(){}\n\r\\]/

/** A word that reads as a subcommand (`test`, `run`, `status`), not an option or a path. */
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/i

function words(command: string): string[] {
  return command
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
}

/** The pattern "approve always" offers for a command: its program and subcommand. */
export function commandPattern(command: string): string | null {
  const [program, second] = words(command)
  if (program === undefined || SHELL_CONTROL.test(program)) return null
  return second !== undefined && SUBCOMMAND.test(second) ? `${program} ${second}` : program
}

/** Whether an approved pattern allows `command` without asking. */
export function commandMatches(pattern: string, command: string): boolean {
  if (SHELL_CONTROL.test(command)) return false
  const wanted = words(pattern)
  const given = words(command)
  return wanted.length > 0 && wanted.every((word, index) => given[index] === word)
}

/** The pattern "approve always" offers for a write: the file's folder, or the file at the top. */
export function writePattern(path: string): string {
  const folder = posix.dirname(path)
  return folder === '.' || folder === '' ? path : `${folder}/**`
}

/** Whether an approved write pattern allows writing `path` (workspace-relative). */
export function writeMatches(pattern: string, path: string): boolean {
  return picomatch(pattern, { dot: true })(path)
}
