import { devNull } from 'node:os'
import { isAbsolute, relative, resolve } from 'node:path'

/**
 * Git as the app runs it: outside the sandbox, with the person's rights, on a repository that
 * agents and whoever made the repository can write. So no call may run a program the repository
 * chose. Three layers:
 *
 * - A fixed set of `-c` overrides on every call. Command-line configuration wins over every
 *   file, so hooks, fsmonitor, editors, pagers, signing programs and transports are off
 *   whatever `.git/config` says.
 * - The drivers a repository may name from `.gitattributes` (filters, diff drivers, merge
 *   drivers) have names of the repository's choosing, so no fixed override can reach them: the
 *   repository's configuration is read first (reading runs nothing) and every driver it defines
 *   is emptied by name. Git skips an empty filter command; a diff driver is never used (the app
 *   passes --no-ext-diff --no-textconv); an emptied merge driver makes git fail rather than run
 *   it, and the app says why.
 * - That reading is only as good as the files it read: configuration that comes from a file an
 *   agent can write (an include into the workspace, a worktree's own config.worktree) could
 *   change between the read and git's own, so it is refused, as is `core.worktree`, which would
 *   move every write elsewhere.
 *
 * The environment is cut to what git needs (no API key, no GIT_* variable of the caller), the
 * person's system and global configuration files are not read, and replace refs (which an agent
 * could write to show the reviewer other content) are ignored.
 */

/** Set on every call: each of these keys makes git run a program or reach the network. */
export const FIXED_OVERRIDES: readonly (readonly [key: string, value: string])[] = [
  ['core.hooksPath', devNull],
  ['core.fsmonitor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.askPass', ''],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.pager', 'cat'],
  ['core.alternateRefsCommand', ''],
  ['diff.external', ''],
  ['credential.helper', ''],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['uploadpack.packObjectsHook', ''],
  ['protocol.allow', 'never'],
  ['submodule.recurse', 'false'],
  // gc and maintenance start more git processes in the background, on the app's time.
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
]

/** The keys of a driver, per kind: emptied for every driver name the configuration has. */
const DRIVER_KEYS: Readonly<Record<string, readonly string[]>> = {
  filter: ['clean', 'smudge', 'process'],
  diff: ['command', 'textconv'],
  merge: ['driver'],
}

/** Keys of the person's global configuration that only describe, never run: passed along. */
export const GLOBAL_KEYS_KEPT: ReadonlySet<string> = new Set([
  'user.name',
  'user.email',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.excludesfile',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.quotepath',
  'core.longpaths',
  'core.symlinks',
  'init.defaultbranch',
  'merge.conflictstyle',
  'diff.renames',
  'diff.algorithm',
])

/** One entry of `git config --list --show-origin --show-scope -z`. */
export interface ConfigEntry {
  readonly scope: string
  /** The file it came from (absolute), or null for the command line and other sources. */
  readonly file: string | null
  readonly key: string
  readonly value: string
}

/** Parses `git config -l -z --show-scope --show-origin` run in `cwd`. */
export function parseConfigList(output: string, cwd: string): ConfigEntry[] {
  const fields = output.split('\0')
  const entries: ConfigEntry[] = []
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const scope = fields[index] ?? ''
    const origin = fields[index + 1] ?? ''
    const pair = fields[index + 2] ?? ''
    const newline = pair.indexOf('\n')
    const key = newline === -1 ? pair : pair.slice(0, newline)
    const value = newline === -1 ? '' : pair.slice(newline + 1)
    const file = origin.startsWith('file:') ? resolve(cwd, origin.slice('file:'.length)) : null
    entries.push({ scope, file, key, value })
  }
  return entries
}

/** What the configuration read in one place means for the calls made there. */
export interface ConfigVerdict {
  /** `-c key=value` pairs that empty every driver the configuration defines. */
  readonly driverOverrides: readonly (readonly [string, string])[]
  /** The merge drivers it defines (a merge that needs one is refused, naming it). */
  readonly mergeDrivers: readonly string[]
  /** Why no git call may run there, or null. */
  readonly problem: string | null
}

/**
 * Judges a repository's configuration: the drivers to empty, and whether any of it comes from a
 * file an agent can write (`agentWritable`), other than the files the sandbox keeps read-only for
 * every agent (`protectedFiles`: the repository's own config).
 */
export function judgeConfig(
  entries: readonly ConfigEntry[],
  agentWritable: (file: string) => boolean,
  protectedFiles: ReadonlySet<string>,
): ConfigVerdict {
  const overrides = new Map<string, string>()
  const mergeDrivers = new Set<string>()
  const unsafeFiles = new Set<string>()
  let worktreeMoved: string | null = null
  for (const entry of entries) {
    if (entry.scope === 'command') continue
    if (entry.file !== null && !protectedFiles.has(entry.file) && agentWritable(entry.file))
      unsafeFiles.add(entry.file)
    const driver = driverOf(entry.key)
    if (driver !== null) {
      for (const key of DRIVER_KEYS[driver.kind] ?? [])
        overrides.set(`${driver.kind}.${driver.name}.${key}`, '')
      if (driver.kind === 'filter') overrides.set(`filter.${driver.name}.required`, 'false')
      if (driver.kind === 'merge') mergeDrivers.add(driver.name)
    }
    if (entry.key.toLowerCase() === 'core.worktree') worktreeMoved = entry.value
  }
  let problem: string | null = null
  if (unsafeFiles.size > 0)
    problem =
      `its git configuration is read from ${[...unsafeFiles].join(', ')}, which agents can ` +
      'write; Agent Teams runs no git command there until that include (or file) is removed'
  else if (worktreeMoved !== null)
    problem =
      `its git configuration sets core.worktree (${worktreeMoved}), which would move git's ` +
      'writes out of the workspace; Agent Teams runs no git command there until it is unset'
  return { driverOverrides: [...overrides], mergeDrivers: [...mergeDrivers], problem }
}

/** `filter.lfs.clean` → {kind: 'filter', name: 'lfs'}; null for any other key. */
function driverOf(key: string): { kind: string; name: string } | null {
  const first = key.indexOf('.')
  const last = key.lastIndexOf('.')
  if (first === -1 || last === first) return null
  const kind = key.slice(0, first).toLowerCase()
  if (!Object.hasOwn(DRIVER_KEYS, kind)) return null
  return { kind, name: key.slice(first + 1, last) }
}

/** The `-c` arguments for `pairs`, in order. */
export function configArguments(pairs: Iterable<readonly [string, string]>): string[] {
  const args: string[] = []
  for (const [key, value] of pairs) args.push('-c', `${key}=${value}`)
  return args
}

/** Variables passed from the app's environment to git: what finding programs and files needs. */
const PASSED_VARIABLES = [
  'PATH',
  'Path',
  'PATHEXT',
  'SYSTEMROOT',
  'SystemRoot',
  'WINDIR',
  'COMSPEC',
  'HOME',
  'USERPROFILE',
  'TMPDIR',
  'TEMP',
  'TMP',
]

/** Git's environment: only `PASSED_VARIABLES` of the app's, then the hardening, then `extra`. */
export function gitEnvironment(
  from: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const name of PASSED_VARIABLES) if (from[name] !== undefined) env[name] = from[name]
  return {
    ...env,
    LC_ALL: 'C',
    LANGUAGE: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_ADVICE: '0',
    ...extra,
  }
}

/** Whether `path` is `folder` or inside it (both absolute, resolved the same way). */
export function isInside(folder: string, path: string): boolean {
  const inside = relative(folder, path)
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))
}
