import { spawnSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute } from 'node:path'
import type { GitFolders } from './ref-logs'

/**
 * The box around the app's own git calls that may write (Linux, with bubblewrap): the whole file
 * system read-only but for exactly what the call must write — the repository's git folders (the
 * shared one and a worktree's own), its work tree, the folder of a `GIT_INDEX_FILE` the app
 * chose, and the folders a `worktree add|move|remove` makes or removes. A link an agent planted
 * under `objects/` (or a reflog link) that leads elsewhere then leads to a read-only file system,
 * and git fails instead of writing there with the person's rights.
 *
 * Calls that only read are not boxed (bubblewrap costs 2-4 ms a process). Where bubblewrap is
 * missing, or the kernel refuses it a user namespace, nothing is boxed and the app's checks
 * before each call (object-store.ts, ref-logs.ts) are the only line.
 */

/** Subcommands that never write objects, refs or logs (with GIT_OPTIONAL_LOCKS=0). */
const READING = new Set([
  'cat-file',
  'check-attr',
  'check-ignore',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'for-each-ref',
  'log',
  'ls-files',
  'ls-tree',
  'merge-base',
  'rev-list',
  'rev-parse',
  'show',
  'show-ref',
  'status',
  'var',
  'version',
])

/**
 * Whether `git args…` runs unboxed: it only reads, or it is `worktree move`, which renames a
 * worktree folder from one place to another (two binds are two mounts, and a rename between
 * them fails) and writes no object, ref or log. Anything not known is boxed.
 */
export function runsUnboxed(args: readonly string[]): boolean {
  const rest = withoutOptions(args)
  const command = rest[0]
  if (command === undefined) return false
  if (READING.has(command)) return true
  if (command === 'worktree') return rest[1] === 'list' || rest[1] === 'move'
  if (command === 'config')
    return (
      args.some((arg) => arg === '--get' || arg === '--list' || arg === '-l') || rest.length <= 2
    )
  return false
}

/** The arguments from the subcommand on (global `-c key=value` and `-C dir` skipped). */
function withoutOptions(args: readonly string[]): readonly string[] {
  let index = 0
  while (index < args.length) {
    const arg = args[index] ?? ''
    if (arg === '-c' || arg === '-C') index += 2
    else if (arg.startsWith('-')) index += 1
    else break
  }
  return args.slice(index)
}

/** What a boxed call may write, as found by the app (never read from the repository's files). */
export interface BoxPlaces {
  readonly folders: GitFolders | undefined
  /** The work tree the call works in. */
  readonly workTree: string | null
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>> | undefined
}

/** The folders the call may write, resolved (bubblewrap binds what a link leads to). */
export function writablePlaces(places: BoxPlaces): string[] {
  const wanted: string[] = []
  if (places.folders !== undefined) wanted.push(places.folders.common, places.folders.own)
  if (places.workTree !== null) wanted.push(places.workTree)
  const index = places.env?.GIT_INDEX_FILE
  if (index !== undefined) wanted.push(dirname(index))
  if (withoutOptions(places.args)[0] === 'worktree')
    // The parent only: a folder bound onto itself could not be removed or moved.
    for (const arg of places.args) if (isAbsolute(arg)) wanted.push(dirname(arg))
  const found = new Set<string>()
  for (const path of wanted) if (existsSync(path)) found.add(realpathSync(path))
  return [...found].sort()
}

/**
 * The box's base: everything read-only, no device but the two git opens (/dev/null, and
 * /dev/urandom for its temporary files' names; a fresh `--dev /dev` costs 0.6 ms more), in a
 * user namespace of its own. The network is left shared (a namespace of its own costs 0.5 ms a
 * call): git reaches none anyway, every transport being off (`protocol.allow=never`, hardening.ts).
 */
const BASE = [
  '--ro-bind',
  '/',
  '/',
  '--dev-bind',
  '/dev/null',
  '/dev/null',
  '--dev-bind',
  '/dev/urandom',
  '/dev/urandom',
  '--unshare-user',
]

/** `bwrap` and its arguments that run `git args…` in `cwd` with only `writable` writable. */
export function boxed(
  cwd: string,
  args: readonly string[],
  writable: readonly string[],
): { file: string; args: string[] } {
  return {
    file: 'bwrap',
    args: [
      ...BASE,
      ...writable.flatMap((path) => ['--bind', path, path]),
      '--die-with-parent',
      '--chdir',
      cwd,
      '--',
      'git',
      ...args,
    ],
  }
}

let available: boolean | null = null

/**
 * Whether git calls can be boxed here: Linux, `bwrap` runs, and the kernel lets it make a user
 * namespace (tried once per process).
 */
export function boxAvailable(): boolean {
  if (available !== null) return available
  if (process.platform !== 'linux' || process.env.AGENT_TEAMS_NO_GIT_BOX === '1') {
    available = false
    return available
  }
  const trial = spawnSync('bwrap', [...BASE, '--', 'true'], { stdio: 'ignore', timeout: 10_000 })
  available = trial.error === undefined && trial.status === 0
  if (!available)
    console.warn(
      "[git] bubblewrap is missing or cannot make a user namespace here: the app's git calls run unboxed, checked before each call only.",
    )
  return available
}
