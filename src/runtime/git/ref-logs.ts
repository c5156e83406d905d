import { lstatSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'

/**
 * Reflogs an agent planted. When git moves a ref it appends a line to the ref's log
 * (`<common>/logs/<ref>`) and, for the branch checked out, to `<gitDir>/logs/HEAD`, opening the
 * path and following a symbolic link there (creating the target when missing); a hard link
 * works as well, since agents run as the person. Teammates can write their own branch's log and
 * their worktree's `logs/HEAD`, workspace agents the workspace's whole `logs/` folder. So before
 * any call that may move a ref, each log it would append to is checked: missing, or a regular
 * file with one link, reached through no linked folder. Anything else is refused, saying what
 * to remove: the person's own git would follow the same link.
 *
 * The check and git's own open are two steps; an agent that plants a link between them still
 * wins. The one place an agent is certain to be waiting (undo moving its own branch) writes the
 * branch itself, with no log at all (undo/restore-files.ts).
 */

/** Subcommands that move refs, so append to reflogs. */
const REF_WRITERS = new Set([
  'am',
  'branch',
  'checkout',
  'cherry-pick',
  'commit',
  'merge',
  'pull',
  'rebase',
  'reset',
  'revert',
  'stash',
  'switch',
  'symbolic-ref',
  'tag',
  'update-ref',
  'worktree',
])

/** Subcommands whose positional arguments name the refs they write. */
const NAMING_REFS = new Set(['branch', 'symbolic-ref', 'tag', 'update-ref', 'worktree'])

/** `update-ref --stdin` verbs followed by a ref. */
const STDIN_VERBS = new Set(['update', 'create', 'delete', 'verify'])

/** A call's subcommand and its arguments, past the `-c key=value` pairs put before it. */
export function subcommandOf(args: readonly string[]): { name: string; rest: string[] } | null {
  let index = 0
  while (index < args.length) {
    const arg = args[index] ?? ''
    if (arg === '-c') index += 2
    else if (arg.startsWith('-')) index += 1
    else return { name: arg, rest: args.slice(index + 1) }
  }
  return null
}

/**
 * The refs a call may write, beyond HEAD and its branch (always checked for a ref-writing
 * call), or null when it writes none.
 */
export function refsWritten(args: readonly string[], input: string | undefined): string[] | null {
  const call = subcommandOf(args)
  if (call === null || !REF_WRITERS.has(call.name) || readsOnly(call)) return null
  if (!NAMING_REFS.has(call.name)) return []
  const refs: string[] = []
  const optionsEnd = call.rest.indexOf('--')
  const positional = (optionsEnd === -1 ? call.rest : call.rest.slice(0, optionsEnd)).filter(
    (arg, index, all) => !arg.startsWith('-') && all[index - 1] !== '-m',
  )
  if (call.name === 'update-ref' && call.rest.includes('--stdin')) {
    for (const line of (input ?? '').split(/[\n\0]/)) {
      const [verb = '', ref = ''] = line.split(' ')
      if (STDIN_VERBS.has(verb) && ref !== '') refs.push(ref)
    }
  } else if (call.name === 'update-ref') {
    if (positional[0] !== undefined) refs.push(positional[0])
  } else {
    // Branch names (`branch -D team/x`, `worktree add -b team/x`): any word could be one, and a
    // log checked that git would not write costs nothing.
    for (const word of positional) refs.push(word.startsWith('refs/') ? word : `refs/heads/${word}`)
  }
  return refs.filter(isRefName)
}

/** Forms of ref-writing subcommands that only read (`worktree list`, `symbolic-ref HEAD`). */
function readsOnly(call: { name: string; rest: string[] }): boolean {
  const words = call.rest.filter((arg) => !arg.startsWith('-'))
  if (call.name === 'worktree') return words[0] !== 'add' && words[0] !== 'move'
  if (call.name === 'symbolic-ref') return words.length < 2 && !call.rest.includes('-d')
  // Paths given: the index or the files change, HEAD stays.
  if (call.name === 'reset' || call.name === 'checkout')
    return call.rest.includes('--') || call.rest.some((arg) => arg.startsWith('--pathspec-from'))
  if (call.name === 'stash') return words[0] === 'list' || words[0] === 'show'
  return false
}

/** Where a call's logs are: the repository's shared folder and the calling worktree's own. */
export interface GitFolders {
  readonly common: string
  readonly own: string
}

/**
 * Refuses (`unsafe-repository`) when a log that moving `refs` (and HEAD, and the branch HEAD
 * names in `folders.own`) would append to is a link, a non-regular file or a file with more
 * than one hard link, or lies under a linked folder.
 */
export function assertLogsUnplanted(folders: GitFolders, refs: readonly string[]): void {
  assertLogUnplanted(folders.own, 'HEAD', 'HEAD')
  const head = headBranch(folders.own)
  const all = head === null ? refs : [head, ...refs]
  for (const ref of new Set(all)) assertLogUnplanted(folders.common, ref, ref)
}

/** The `-c` pair that keeps git from starting a log for a ref that has none. */
export const NO_NEW_LOGS = ['-c', 'core.logAllRefUpdates=false'] as const

function assertLogUnplanted(gitFolder: string, relative: string, ref: string): void {
  const parts = ['logs', ...relative.split('/')]
  let path = gitFolder
  for (const [index, part] of parts.entries()) {
    path = join(path, part)
    const stats = lstatSync(path, { throwIfNoEntry: false })
    if (stats === undefined) return
    const last = index === parts.length - 1
    if (stats.isSymbolicLink()) throw planted(path, ref, 'a symbolic link')
    if (!last) {
      if (!stats.isDirectory()) return
      continue
    }
    if (stats.isDirectory()) return
    if (!stats.isFile()) throw planted(path, ref, 'not a regular file')
    if (stats.nlink > 1) throw planted(path, ref, `a file with ${stats.nlink} hard links`)
  }
}

function planted(path: string, ref: string, what: string): TeamError {
  return new TeamError(
    'unsafe-repository',
    `${path} is ${what}. Git appends a line to it each time ${ref} moves, writing wherever it ` +
      `leads (your own git would too), so Agent Teams does not move ${ref} until it is removed: ` +
      `rm "${path}" (it only holds the ref's history).`,
  )
}

/** The branch HEAD names in a git folder (`ref: refs/heads/x`), or null (detached, unreadable). */
function headBranch(gitFolder: string): string | null {
  const path = join(gitFolder, 'HEAD')
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (stats === undefined || !stats.isFile() || stats.size > 4096) return null
  const match = /^ref: (\S+)\s*$/.exec(readFileSync(path, 'utf8'))
  return match?.[1] !== undefined && isRefName(match[1]) ? match[1] : null
}

/** A name that stays inside `logs/` (git refuses the others anyway). */
function isRefName(ref: string): boolean {
  const parts = ref.split('/')
  return (
    ref.startsWith('refs/') &&
    !ref.includes('\0') &&
    parts.every((part) => part !== '' && part !== '.' && part !== '..')
  )
}
