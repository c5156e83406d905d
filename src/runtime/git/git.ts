import { statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { TeamError } from '../../shared/errors'
import { execute, executeBytes, type GitCallOptions, type GitResult } from './git-exec'
import { assertLogsUnplanted, NO_NEW_LOGS, refsWritten, type GitFolders } from './ref-logs'
import {
  configArguments,
  FIXED_OVERRIDES,
  GLOBAL_KEYS_KEPT,
  isInside,
  judgeConfig,
  parseConfigList,
  type ConfigVerdict,
} from './hardening'
import { boxAvailable, runsUnboxed, writablePlaces } from './git-box'
import { secureObjectFolders } from './object-store'

export type { GitCallOptions, GitResult } from './git-exec'

/** Where agents can write: a configuration read from there is refused (hardening.ts). */
export interface GitPlaces {
  /** The workspace, and the folder of the teammates' worktrees. */
  readonly agentWritable: readonly string[]
  /** Where a repaired object store is told (default: console.warn with a `[git]` prefix). */
  readonly log?: (message: string) => void
}

/**
 * The app's git for one workspace: every call asynchronous (a 1 GB file must not freeze the
 * server's one thread), hardened so that nothing the repository configures runs (hardening.ts),
 * in the C locale so that its words can be matched, and never asking on a terminal.
 */
export class Git {
  private readonly verdicts = new Map<
    string,
    { files: WatchedFiles; signature: string; verdict: ConfigVerdict; objects: string | null }
  >()
  /** Each place's git folders (found with its verdict; a place's folders never change). */
  private readonly folders = new Map<string, GitFolders>()
  /** Each place's work tree (none in a bare repository). */
  private readonly workTrees = new Map<string, string>()
  private personKeys: Promise<readonly (readonly [string, string])[]> | null = null

  constructor(private readonly places: GitPlaces) {}

  /**
   * `git args…` in `cwd`, whatever its exit status; refused where its config is unsafe, and,
   * for a call that moves refs, where a log it would append to was planted (ref-logs.ts).
   */
  async run(
    cwd: string,
    args: readonly string[],
    options: GitCallOptions = {},
  ): Promise<GitResult> {
    const prefix = await this.hardenedPrefix(cwd, options)
    const box = this.boxFor(cwd, args, options)
    const refs = refsWritten(args, options.input)
    if (refs === null) return execute(cwd, [...prefix, ...args], { ...options, box })
    this.assertLogsUnplanted(cwd, options.repository, refs)
    // The app's own refs never get a log: none is started, and a planted one was refused above.
    const ownRefsOnly = refs.length > 0 && refs.every((ref) => ref.startsWith('refs/agent-teams/'))
    return execute(cwd, [...prefix, ...(ownRefsOnly ? NO_NEW_LOGS : []), ...args], {
      ...options,
      box,
    })
  }

  /**
   * The folders a call that may write is boxed to (git-box.ts), or undefined: it only reads,
   * or there is no box here.
   */
  private boxFor(
    cwd: string,
    args: readonly string[],
    options: GitCallOptions,
  ): readonly string[] | undefined {
    if (runsUnboxed(args) || !boxAvailable()) return undefined
    const key = placeKey(cwd, options.repository)
    const folders = this.folders.get(key)
    // No repository known there yet (`git init`): the folder it was asked to work in.
    const workTree = options.repository?.workTree ?? this.workTrees.get(key)
    return writablePlaces({
      folders,
      workTree: workTree ?? (folders === undefined ? cwd : null),
      args,
      env: options.env,
    })
  }

  /**
   * Refuses (`unsafe-repository`) when moving `refs` from `cwd` (and HEAD, and its branch) would
   * append to a log an agent planted there: a link, or a file with other names.
   */
  async assertRefLogsUnplanted(
    cwd: string,
    refs: readonly string[],
    repository?: GitCallOptions['repository'],
  ): Promise<void> {
    await this.verdictFor(cwd, repository)
    this.assertLogsUnplanted(cwd, repository, refs)
  }

  private assertLogsUnplanted(
    cwd: string,
    repository: GitCallOptions['repository'],
    refs: readonly string[],
  ): void {
    const folders = this.folders.get(placeKey(cwd, repository))
    if (folders !== undefined) assertLogsUnplanted(folders, refs)
  }

  /** `git args…` that must succeed: its stdout, or a TeamError with git's own words. */
  async output(
    cwd: string,
    args: readonly string[],
    options: GitCallOptions = {},
  ): Promise<string> {
    const result = await this.run(cwd, args, options)
    if (result.status !== 0)
      throw new TeamError(
        'io',
        `git ${args[0] ?? ''} failed: ${(result.stderr || result.stdout).trim() || `exit ${result.status}`}`,
      )
    return result.stdout
  }

  /**
   * `git args…` that must succeed, its stdout as bytes (a blob's content, which need not be
   * text: `cat-file --batch`); the same refusals as `output`.
   */
  async outputBytes(
    cwd: string,
    args: readonly string[],
    options: GitCallOptions = {},
  ): Promise<Buffer> {
    const prefix = await this.hardenedPrefix(cwd, options)
    const result = await executeBytes(cwd, [...prefix, ...args], {
      ...options,
      box: this.boxFor(cwd, args, options),
    })
    if (result.status !== 0)
      throw new TeamError(
        'io',
        `git ${args[0] ?? ''} failed: ${result.stderr.trim() || `exit ${result.status}`}`,
      )
    return result.stdout
  }

  /**
   * The verdict for a call at `cwd`, after making sure the object store git would write to, when
   * agents can write it, has only real folders where git writes objects (git/object-store.ts).
   * The sandbox keeps agents from replacing them (sandbox/agent-policy.ts); this is the second
   * line, for a repository that came with a link planted, or a command run without a sandbox.
   */
  private async checkedVerdict(
    cwd: string,
    repository: GitCallOptions['repository'],
  ): Promise<ConfigVerdict> {
    const { verdict, objects } = await this.verdictFor(cwd, repository)
    if (verdict.problem === null && objects !== null)
      for (const path of secureObjectFolders(objects))
        (this.places.log ?? ((message) => console.warn(`[git] ${message}`)))(
          `${path} was not a folder (an agent's link?); it was replaced by an empty folder.`,
        )
    return verdict
  }

  /** The merge drivers the repository at `cwd` defines (a merge that needs one is refused). */
  async mergeDrivers(cwd: string): Promise<readonly string[]> {
    return (await this.verdictFor(cwd, undefined)).verdict.mergeDrivers
  }

  /** Whether `folder` is inside a git work tree (its configuration not judged yet). */
  async isInsideWorkTree(folder: string): Promise<boolean> {
    const args = [...configArguments(FIXED_OVERRIDES), 'rev-parse', '--is-inside-work-tree']
    const inside = await execute(folder, args)
    return inside.status === 0 && inside.stdout.trim() === 'true'
  }

  /**
   * Whether `folder` is inside a git work tree with at least one commit to branch from; a
   * repository whose configuration is refused throws `unsafe-repository`, saying why.
   */
  async isRepository(folder: string): Promise<boolean> {
    if (!(await this.isInsideWorkTree(folder))) return false
    const head = await this.run(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
    return head.status === 0
  }

  /**
   * The person's name and email for commits the runtime makes on their behalf (merges), or a
   * stand-in when git has none configured, so that a merge never fails on "Please tell me who
   * you are".
   */
  async committerEnvironment(cwd: string): Promise<Record<string, string>> {
    const configured = async (key: string): Promise<string> =>
      (await this.run(cwd, ['config', key])).stdout.trim()
    const env: Record<string, string> = {}
    if ((await configured('user.name')) === '') {
      env.GIT_AUTHOR_NAME = 'Agent Teams'
      env.GIT_COMMITTER_NAME = 'Agent Teams'
    }
    if ((await configured('user.email')) === '') {
      env.GIT_AUTHOR_EMAIL = 'agent-teams@localhost'
      env.GIT_COMMITTER_EMAIL = 'agent-teams@localhost'
    }
    return env
  }

  /**
   * The repository's configuration at `cwd`, judged, read again only when a file it came from
   * (or a per-worktree config that could appear) changed.
   */
  private async verdictFor(
    cwd: string,
    repository: GitCallOptions['repository'],
  ): Promise<{ verdict: ConfigVerdict; objects: string | null }> {
    const key = placeKey(cwd, repository)
    const cached = this.verdicts.get(key)
    if (cached !== undefined && cached.signature === cached.files.signature()) return cached
    const listed = await execute(
      cwd,
      [
        ...configArguments(FIXED_OVERRIDES),
        'config',
        '--list',
        '--show-scope',
        '--show-origin',
        '-z',
      ],
      { repository },
    )
    // Outside a repository `git config --list` still reads; nothing is defined there to empty.
    const entries = listed.status === 0 ? parseConfigList(listed.stdout, cwd) : []
    const gitDirs = await this.gitDirsOf(cwd, repository)
    const protectedFiles = new Set<string>()
    if (gitDirs !== null) {
      this.folders.set(key, gitDirs)
      if (gitDirs.top !== null) this.workTrees.set(key, gitDirs.top)
      protectedFiles.add(join(gitDirs.common, 'config'))
      protectedFiles.add(join(gitDirs.common, 'config.worktree'))
      protectedFiles.add(join(gitDirs.own, 'config.worktree'))
    }
    const writable = (file: string): boolean =>
      this.places.agentWritable.some((folder) => isInside(folder, file))
    const base = judgeConfig(entries, writable, protectedFiles)
    const includes = includeTargets(entries).filter(writable)
    const verdict: ConfigVerdict =
      base.problem === null && includes.length > 0
        ? {
            ...base,
            problem: `its git configuration includes ${includes.join(', ')}, which agents can write; Agent Teams runs no git command there until that include is removed`,
          }
        : base.problem === null && gitDirs !== null && redirectedCommon(gitDirs)
          ? {
              ...base,
              problem: `${join(gitDirs.own, 'commondir')} moves its objects and refs to ${gitDirs.common}; Agent Teams runs no git command there until that file is removed`,
            }
          : base
    const watched = new WatchedFiles([
      ...entries.flatMap((entry) => (entry.file === null ? [] : [entry.file])),
      ...protectedFiles,
      ...(gitDirs === null ? [] : [join(gitDirs.own, 'commondir')]),
    ])
    const objects =
      gitDirs !== null && writable(join(gitDirs.common, 'objects'))
        ? join(gitDirs.common, 'objects')
        : null
    const record = { files: watched, signature: watched.signature(), verdict, objects }
    this.verdicts.set(key, record)
    return record
  }

  private async gitDirsOf(
    cwd: string,
    repository: GitCallOptions['repository'],
  ): Promise<{ own: string; common: string; top: string | null } | null> {
    const args = [...configArguments(FIXED_OVERRIDES), 'rev-parse', '--git-dir', '--git-common-dir']
    // --show-toplevel fails in a bare repository, where the two folders are still printed.
    const result = await execute(cwd, [...args, '--show-toplevel'], { repository })
    const [own = '', common = '', top = ''] = result.stdout.split('\n').map((line) => line.trim())
    if (own === '' || common === '') return null
    return {
      own: resolve(cwd, own),
      common: resolve(cwd, common),
      top: result.status === 0 && top !== '' ? resolve(cwd, top) : null,
    }
  }

  /**
   * The `-c` arguments every call carries (hardening.ts: the person's describing keys, the fixed
   * overrides, the repository's drivers emptied); refused where the repository's config is unsafe.
   */
  private async hardenedPrefix(cwd: string, options: GitCallOptions): Promise<string[]> {
    const verdict = await this.checkedVerdict(cwd, options.repository)
    if (verdict.problem !== null)
      throw new TeamError(
        'unsafe-repository',
        `The repository at ${cwd} is not used: ${verdict.problem}.`,
      )
    return configArguments([
      ...(await this.personConfiguration()),
      ...FIXED_OVERRIDES,
      ...verdict.driverOverrides,
    ])
  }

  /** The describing keys of the person's own global configuration (hardening.ts). */
  private personConfiguration(): Promise<readonly (readonly [string, string])[]> {
    this.personKeys ??= readPersonConfiguration()
    return this.personKeys
  }
}

/**
 * Whether a git folder's `commondir` file sends git to a shared folder other than its own, where
 * git itself never puts one: only a worktree's folder (`<common>/worktrees/<name>`) has one. In
 * the workspace's `.git`, which the lead can write, it would move the app's object and ref
 * writes to a folder of the lead's choosing, out of the sandbox's protections.
 */
function redirectedCommon(gitDirs: { own: string; common: string }): boolean {
  return (
    gitDirs.own !== gitDirs.common && dirname(gitDirs.own) !== join(gitDirs.common, 'worktrees')
  )
}

function placeKey(cwd: string, repository: GitCallOptions['repository']): string {
  return repository === undefined ? cwd : `${cwd}\0${repository.gitDir}`
}

/** The files a verdict was read from: when one changes (or appears), it is read again. */
class WatchedFiles {
  private readonly files: readonly string[]
  constructor(files: readonly string[]) {
    this.files = [...new Set(files)].sort()
  }
  signature(): string {
    return this.files
      .map((file) => {
        const stats = statSync(file, { throwIfNoEntry: false, bigint: true })
        return stats === undefined
          ? `${file}:none`
          : `${file}:${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`
      })
      .join('|')
  }
}

/** Where `include.path` and `includeIf.*.path` point, resolved as git does. */
function includeTargets(
  entries: readonly { key: string; value: string; file: string | null }[],
): string[] {
  const targets: string[] = []
  for (const entry of entries) {
    const key = entry.key.toLowerCase()
    if (!(key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))))
      continue
    const home = process.env.HOME ?? ''
    const path = entry.value.startsWith('~/') ? join(home, entry.value.slice(2)) : entry.value
    targets.push(
      isAbsolute(path) ? path : resolve(entry.file === null ? '.' : dirname(entry.file), path),
    )
  }
  return targets
}

/**
 * The person's global configuration, only its describing keys (their name and email among
 * them): every other key of it is left out with the file, since it may name programs.
 */
async function readPersonConfiguration(): Promise<readonly (readonly [string, string])[]> {
  const result = await execute(process.cwd(), ['config', '--global', '--list', '-z'], {
    readGlobal: true,
  })
  if (result.status !== 0) return []
  const kept: [string, string][] = []
  for (const pair of result.stdout.split('\0')) {
    const newline = pair.indexOf('\n')
    if (newline === -1) continue
    const key = pair.slice(0, newline).toLowerCase()
    if (GLOBAL_KEYS_KEPT.has(key)) kept.push([key, pair.slice(newline + 1)])
  }
  return kept
}

/** A teammate as the author and committer of the commits made of its work. */
export function teammateIdentity(name: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@agent-teams.local`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@agent-teams.local`,
  }
}
