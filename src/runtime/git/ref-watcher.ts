import { readdirSync, statSync, watch } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Disposable } from '../../shared/disposable'
import { Burst } from './burst'
import { Git } from './git'

/** One watched folder: disposed when it is no longer needed. */
export type FolderWatch = Disposable

/**
 * Starts watching one folder (not its subfolders): `onName` gets the name of each entry that
 * changed, `onError` a failure of the watch after it started. Throws when the watch cannot
 * start (the folder is gone, or the system's limit of watches is reached).
 */
export type WatchFolder = (
  folder: string,
  onName: (name: string) => void,
  onError: (error: Error) => void,
) => FolderWatch

export interface GitRefWatcherOptions {
  readonly workspace: string
  /** Called once per burst of ref changes, after the burst. */
  readonly onChange: () => void
  /** Where problems are told (default: console.warn with a `[git-refs]` prefix). */
  readonly log?: (message: string) => void
  /** How long the refs must stay still before `onChange` (default 150 ms). */
  readonly settleMs?: number
  /** The longest a burst holds `onChange` back (default 800 ms). */
  readonly maxWaitMs?: number
  /** The most folders of branches watched (default 500): the rest are told about once. */
  readonly maxBranchFolders?: number
  /** Replaces `fs.watch` (tests play watches that fail). */
  readonly watchFolder?: WatchFolder
}

/** What an entry's change means: read the branches again, watch other folders, find the repository. */
type Reaction = 'change' | 'rescan' | 'relocate'
type Rule = (name: string, path: string) => Reaction | null

interface Places {
  /** The workspace's own git folder (its HEAD), `<common>/worktrees/<id>` for a linked worktree. */
  readonly gitDir: string
  /** The repository's shared folder: refs, packed-refs, the worktrees' folders. */
  readonly commonDir: string
  readonly topLevel: string
}

interface Watched {
  readonly watch: FolderWatch
  readonly ino: number
}

/** A watch that errored this many times is not started again until the repository moves. */
const MAX_ERRORS = 3

/**
 * Tells when git's refs change in the workspace's repository, whoever changed them (this
 * process, the CLI in another, a teammate's commit in its worktree, the person in a terminal):
 * a branch under `refs/heads/` (the teammates' `team/*` and their bases), `packed-refs`, HEAD of
 * the workspace and of each worktree. Plain `fs.watch`es of those folders only, so nothing runs
 * while nothing changes; a repository replaced or removed is found again through the folder
 * that holds `.git`. Indexes are not watched: a teammate's changed files are counted from a
 * snapshot of its whole worktree, which staging does not change.
 */
export class GitRefWatcher {
  private places: Places
  private readonly watched = new Map<string, Watched>()
  private readonly rules = new Map<string, Rule[]>()
  private readonly errors = new Map<string, number>()
  /** Folders whose watch could not start: told once, tried again after a relocation. */
  private readonly refused = new Set<string>()
  private readonly burst: Burst
  private readonly log: (message: string) => void
  private readonly watchFolder: WatchFolder
  private readonly maxBranchFolders: number
  private rescanNeeded = false
  private relocateNeeded = false
  private lost = false
  private capTold = false
  private closed = false

  private constructor(
    private readonly options: GitRefWatcherOptions,
    places: Places,
  ) {
    this.places = places
    this.log = options.log ?? ((message) => console.warn(`[git-refs] ${message}`))
    this.watchFolder = options.watchFolder ?? watchFolderWithNode
    this.maxBranchFolders = options.maxBranchFolders ?? 500
    this.burst = new Burst(() => this.settled(), options.settleMs ?? 150, options.maxWaitMs ?? 800)
    this.rescan()
  }

  /** Starts watching, or returns null (watching nothing) when the workspace is not in a repository. */
  static async start(options: GitRefWatcherOptions): Promise<GitRefWatcher | null> {
    const places = await locate(options.workspace)
    return places === null ? null : new GitRefWatcher(options, places)
  }

  /** The folders watched now (for tests and diagnostics). */
  folders(): string[] {
    return [...this.watched.keys()]
  }

  close(): void {
    this.closed = true
    this.burst.stop()
    for (const { watch: folderWatch } of this.watched.values()) folderWatch.dispose()
    this.watched.clear()
  }

  /** A burst is over: follow the repository and its folders, then tell. */
  private settled(): void {
    if (this.closed) return
    const relocated = this.relocateNeeded ? this.relocate() : Promise.resolve()
    void relocated.then(
      () => {
        if (this.closed) return
        if (this.rescanNeeded) this.rescan()
        this.options.onChange()
      },
      (error: unknown) => this.log(`following the repository failed: ${explain(error)}`),
    )
  }

  private async relocate(): Promise<void> {
    this.relocateNeeded = false
    this.rescanNeeded = true
    const places = await locate(this.options.workspace)
    if (this.closed) return
    if (places === null) {
      if (!this.lost)
        this.log(
          `${this.options.workspace} is no longer in a git repository; branch lines refresh ` +
            'again when it is one.',
        )
      this.lost = true
      return
    }
    if (this.lost) this.log(`${this.options.workspace} is in a git repository again.`)
    this.lost = false
    this.places = places
    this.refused.clear()
    this.errors.clear()
  }

  /** Watches what the repository holds now, and stops watching what it no longer does. */
  private rescan(): void {
    this.rescanNeeded = false
    const plan = this.plan()
    for (const [folder, current] of this.watched) {
      const ino = inodeOf(folder)
      if (plan.has(folder) && ino === current.ino) continue
      current.watch.dispose()
      this.watched.delete(folder)
    }
    this.rules.clear()
    for (const [folder, rules] of plan) {
      this.rules.set(folder, rules)
      if (!this.watched.has(folder)) this.start(folder)
    }
  }

  /** Every folder to watch, with what a change of each of its entries means. */
  private plan(): Map<string, Rule[]> {
    const plan = new Map<string, Rule[]>()
    const add = (folder: string, rule: Rule): void => {
      const rules = plan.get(folder)
      if (rules) rules.push(rule)
      else plan.set(folder, [rule])
    }
    const { gitDir, commonDir, topLevel } = this.places
    // The folders holding `.git`: a repository removed, made again or replaced.
    add(dirname(commonDir), named(basename(commonDir), 'relocate'))
    add(topLevel, named('.git', 'relocate'))
    if (this.lost) return plan
    add(gitDir, named('HEAD', 'change'))
    add(commonDir, (name) => {
      if (name === 'packed-refs') return 'change'
      return name === 'refs' || name === 'worktrees' || name === 'reftable' ? 'rescan' : null
    })
    add(join(commonDir, 'refs'), named('heads', 'rescan'))
    for (const folder of this.branchFolders())
      add(folder, (name, path) => this.branchEntry(name, path))
    const worktrees = join(commonDir, 'worktrees')
    if (isFolder(worktrees)) {
      add(worktrees, () => 'rescan')
      for (const id of subfolders(worktrees)) add(join(worktrees, id), named('HEAD', 'change'))
    }
    // Newer repositories may keep their refs in reftable files rather than one file a ref.
    const reftable = join(commonDir, 'reftable')
    if (isFolder(reftable)) add(reftable, (name) => (name.endsWith('.lock') ? null : 'change'))
    return plan
  }

  /** `refs/heads` and its folders, `team/` first, at most `maxBranchFolders`. */
  private branchFolders(): string[] {
    const heads = join(this.places.commonDir, 'refs', 'heads')
    if (!isFolder(heads)) return []
    const folders: string[] = []
    const queue = [heads, join(heads, 'team')]
    for (let next = 0; next < queue.length; next++) {
      const folder = queue[next] ?? heads
      if (folders.includes(folder) || !isFolder(folder)) continue
      if (folders.length >= this.maxBranchFolders) {
        if (!this.capTold)
          this.log(
            `${heads} has more than ${this.maxBranchFolders} folders of branches; only the ` +
              'first are watched, so a change to a branch in the others shows at the next status change.',
          )
        this.capTold = true
        break
      }
      folders.push(folder)
      for (const name of subfolders(folder)) queue.push(join(folder, name))
    }
    return folders
  }

  /** A ref written (its `.lock` renamed into place), removed, or a folder of refs made. */
  private branchEntry(name: string, path: string): Reaction | null {
    if (name.endsWith('.lock')) return null
    if (this.watched.has(path) || isFolder(path)) this.rescanNeeded = true
    return 'change'
  }

  private start(folder: string): void {
    if (this.refused.has(folder) || (this.errors.get(folder) ?? 0) >= MAX_ERRORS) return
    const ino = inodeOf(folder)
    if (ino === null) return
    try {
      const folderWatch = this.watchFolder(
        folder,
        (name) => this.entryChanged(folder, name),
        (error) => this.failed(folder, error),
      )
      this.watched.set(folder, { watch: folderWatch, ino })
    } catch (error) {
      this.refused.add(folder)
      this.log(`cannot watch ${folder}: ${explain(error)}`)
    }
  }

  private entryChanged(folder: string, name: string): void {
    if (this.closed) return
    let changed = false
    for (const rule of this.rules.get(folder) ?? []) {
      const reaction = rule(name, join(folder, name))
      if (reaction === null) continue
      changed = true
      if (reaction === 'rescan') this.rescanNeeded = true
      if (reaction === 'relocate') this.relocateNeeded = true
    }
    if (changed) this.burst.poke()
  }

  /** A watch that broke (its folder went away, the system took it back): watch again later. */
  private failed(folder: string, error: Error): void {
    if (this.closed) return
    this.watched.get(folder)?.watch.dispose()
    this.watched.delete(folder)
    const count = (this.errors.get(folder) ?? 0) + 1
    this.errors.set(folder, count)
    this.log(
      `the watch of ${folder} failed: ${explain(error)}; ` +
        (count >= MAX_ERRORS ? 'it is not watched again.' : 'it is watched again.'),
    )
    // The repository itself may be what went away.
    this.relocateNeeded = true
    this.burst.poke()
  }
}

/** The workspace's git folders, or null when it is in no repository (or git is missing). */
async function locate(workspace: string): Promise<Places | null> {
  let result
  try {
    // Only reads; hardened like every git call of the app (git/hardening.ts).
    result = await new Git({ agentWritable: [workspace] }).run(workspace, [
      'rev-parse',
      '--path-format=absolute',
      '--git-dir',
      '--git-common-dir',
      '--show-toplevel',
    ])
  } catch {
    return null
  }
  const [gitDir, commonDir, topLevel] = result.stdout.split('\n').map((line) => line.trim())
  if (result.status !== 0 || !gitDir || !commonDir || !topLevel) return null
  return { gitDir, commonDir, topLevel }
}

function named(wanted: string, reaction: Reaction): Rule {
  return (name) => (name === wanted ? reaction : null)
}

/** The default `WatchFolder`: Node's `fs.watch` of one folder, not keeping the process up. */
export function watchFolderWithNode(
  folder: string,
  onName: (name: string) => void,
  onError: (error: Error) => void,
): FolderWatch {
  const folderWatch = watch(folder, { persistent: false })
  folderWatch.on('change', (_event, name) => {
    if (typeof name === 'string') onName(name)
  })
  folderWatch.on('error', onError)
  return { dispose: () => folderWatch.close() }
}

function inodeOf(path: string): number | null {
  try {
    const stat = statSync(path)
    return stat.isDirectory() ? stat.ino : null
  } catch {
    return null
  }
}

function isFolder(path: string): boolean {
  return inodeOf(path) !== null
}

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}

function explain(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ENOSPC' || code === 'EMFILE')
    return (
      `${message} (the system's limit of watched files is reached; raise ` +
      'fs.inotify.max_user_watches, or close other programs that watch many files)'
    )
  return message
}
