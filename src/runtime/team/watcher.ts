import {
  mkdirSync,
  readdirSync,
  statSync,
  watch as watchFolder,
  type FSWatcher as FolderWatch,
} from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import { isValidName } from '../../shared/names'
import type { TeamPaths } from './paths'

export type TeamChange =
  | {
      readonly kind: 'inbox'
      readonly name: string
      readonly change: 'added' | 'appended' | 'removed'
    }
  | { readonly kind: 'config' | 'control' | 'tasks' | 'schedules' }

/**
 * chokidar throttles `change` per file (50 ms) and sends nothing after the throttle, so the last
 * write of a burst could go unseen. Every event is therefore followed by a re-check this long
 * after it, and another while the file keeps changing.
 */
export const TRAILING_CHECK_MS = 60

interface Seen {
  size: number
  mtimeMs: number
  ino: number
}

export interface TeamWatcherOptions {
  /** How long after an event the file is checked again (tests lengthen it). */
  readonly trailingCheckMs?: number
}

/**
 * Turns every change under `.team/` made by anyone (another program, a shell `echo >>`, an
 * editor) into a typed event: a line appended to an inbox, a new inbox file, an edit of
 * config.json. The runtime's own state files under `.team/mailbox/` are not watched.
 *
 * Inbox files are watched twice: by a plain `fs.watch` of the inbox folder, which reports every
 * append at once (inotify drops nothing and throttles nothing), and by chokidar, which also sees
 * files added and removed, a folder that is replaced, and whatever the plain watch missed. Each
 * report is checked against the file's size, time and inode, so one append is one event however
 * many watchers saw it.
 */
export class TeamWatcher {
  private readonly watcher: FSWatcher
  private readonly seen = new Map<string, Seen>()
  private readonly trailing = new Map<string, NodeJS.Timeout>()
  private readonly readyPromise: Promise<void>
  private readonly trailingCheckMs: number
  private readonly inboxFolder: InboxFolderWatch
  private closed = false

  constructor(
    private readonly paths: TeamPaths,
    private readonly onChange: (change: TeamChange) => void,
    options: TeamWatcherOptions = {},
  ) {
    this.trailingCheckMs = options.trailingCheckMs ?? TRAILING_CHECK_MS
    mkdirSync(paths.inboxDirectory, { recursive: true })
    // What is already there counts as seen: its next write is an append, not a new file.
    for (const path of [
      paths.config,
      paths.control,
      paths.schedules,
      ...readdirSync(paths.inboxDirectory).map((file) => join(paths.inboxDirectory, file)),
    ]) {
      if (this.classify(path) !== null) this.remember(path)
    }
    this.watcher = watch(paths.root, {
      ignoreInitial: true,
      depth: 1,
      ignored: (path: string) => this.isIgnored(path),
    })
    this.readyPromise = new Promise((resolve) => this.watcher.once('ready', () => resolve()))
    this.inboxFolder = new InboxFolderWatch({
      root: paths.root,
      inboxDirectory: paths.inboxDirectory,
      onFile: (path) => this.fileChanged(path),
      onFolder: () => this.rescanInboxes(),
    })
    this.watcher.on('add', (path) => this.handle(path, 'added'))
    this.watcher.on('change', (path) => this.handle(path, 'appended'))
    this.watcher.on('unlink', (path) => this.handle(path, 'removed'))
    this.watcher.on('error', () => {
      // A folder that vanished under the watcher; the next event or re-check reports the rest.
    })
  }

  /** Resolves once the initial scan is done and changes are being reported. */
  ready(): Promise<void> {
    return this.readyPromise
  }

  async close(): Promise<void> {
    this.closed = true
    this.inboxFolder.close()
    for (const timer of this.trailing.values()) clearTimeout(timer)
    this.trailing.clear()
    await this.watcher.close()
  }

  private isIgnored(path: string): boolean {
    const inside = relative(this.paths.root, path)
    if (
      inside === '' ||
      inside === 'inbox' ||
      inside === 'config.json' ||
      inside === 'control.jsonl' ||
      inside === 'schedules.json' ||
      inside === 'tasks'
    )
      return false
    const parts = inside.split(sep)
    if (parts.length === 2 && parts[0] === 'tasks') return !this.isTaskFile(path)
    return !(parts.length === 2 && parts[0] === 'inbox' && parts[1]?.endsWith('.jsonl'))
  }

  private handle(path: string, change: 'added' | 'appended' | 'removed'): void {
    if (this.closed || this.classify(path) === null) return
    if (this.classify(path)?.kind === 'inbox' && this.inboxFolder.follow()) this.rescanInboxes()
    if (change === 'removed') this.gone(path)
    else this.fileChanged(path)
  }

  /** Something happened to the file: report what it now is, and look again a little later. */
  private fileChanged(path: string): void {
    if (this.closed || this.classify(path) === null) return
    if (this.reportIfChanged(path)) this.scheduleTrailing(path)
    else if (!this.exists(path)) this.gone(path)
    else this.scheduleTrailing(path)
  }

  /** Reports a removal once, however many watchers saw it. */
  private gone(path: string): void {
    const trailing = this.trailing.get(path)
    if (trailing !== undefined) clearTimeout(trailing)
    this.trailing.delete(path)
    if (this.seen.delete(path)) this.emitFor(path, 'removed')
  }

  private exists(path: string): boolean {
    try {
      statSync(path)
      return true
    } catch {
      return false
    }
  }

  /**
   * A new inbox folder: what was in the old one is gone (chokidar reports nothing for it) and
   * whatever the new one holds is new.
   */
  private rescanInboxes(): void {
    for (const path of [...this.seen.keys()])
      if (this.classify(path)?.kind === 'inbox' && !this.exists(path)) this.gone(path)
    let files: string[]
    try {
      files = readdirSync(this.paths.inboxDirectory)
    } catch {
      return
    }
    for (const file of files) this.fileChanged(join(this.paths.inboxDirectory, file))
  }

  private remember(path: string): void {
    try {
      const stat = statSync(path)
      this.seen.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino })
    } catch {
      // Gone already.
    }
  }

  /** Emits when the file differs from what was last reported; returns whether it did. */
  private reportIfChanged(path: string): boolean {
    let now: Seen
    try {
      const stat = statSync(path)
      now = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino }
    } catch {
      return false
    }
    const before = this.seen.get(path)
    if (
      before &&
      before.size === now.size &&
      before.mtimeMs === now.mtimeMs &&
      before.ino === now.ino
    )
      return false
    this.seen.set(path, now)
    this.emitFor(path, before === undefined ? 'added' : 'appended')
    return true
  }

  /** Re-checks after the throttle window, and again for as long as the file keeps changing. */
  private scheduleTrailing(path: string): void {
    clearTimeout(this.trailing.get(path))
    const timer = setTimeout(() => {
      this.trailing.delete(path)
      if (!this.closed && this.reportIfChanged(path)) this.scheduleTrailing(path)
    }, this.trailingCheckMs)
    timer.unref()
    this.trailing.set(path, timer)
  }

  private classify(
    path: string,
  ):
    | { kind: 'config' | 'control' | 'tasks' | 'schedules' }
    | { kind: 'inbox'; name: string }
    | null {
    if (path === this.paths.config) return { kind: 'config' }
    if (path === this.paths.control) return { kind: 'control' }
    if (path === this.paths.schedules) return { kind: 'schedules' }
    if (this.isTaskFile(path)) return { kind: 'tasks' }
    if (dirname(path) === this.paths.inboxDirectory && path.endsWith('.jsonl')) {
      const name = basename(path, '.jsonl')
      return isValidName(name) ? { kind: 'inbox', name } : null
    }
    return null
  }

  /** `.team/tasks/<n>.json`, replaced by rename on every change (not the lock, not temp files). */
  private isTaskFile(path: string): boolean {
    return dirname(path) === join(this.paths.root, 'tasks') && /^[^.].*\.json$/.test(basename(path))
  }

  private emitFor(path: string, change: 'added' | 'appended' | 'removed'): void {
    const target = this.classify(path)
    if (target === null) return
    this.onChange(
      target.kind === 'inbox'
        ? { kind: 'inbox', name: target.name, change }
        : { kind: target.kind },
    )
  }
}

interface InboxFolderWatchOptions {
  readonly root: string
  readonly inboxDirectory: string
  /** An inbox file (`*.jsonl`) in the folder changed: written, created or removed. */
  readonly onFile: (path: string) => void
  /** The inbox folder is a new one (replaced, or made again after a removal). */
  readonly onFolder: () => void
}

/**
 * Plain `fs.watch`es of `.team/` and `.team/inbox/`: every append to an inbox is reported at
 * once (inotify neither drops nor throttles), where chokidar holds a file's changes back for
 * 50 ms. The watch of `.team/` follows the inbox folder itself: when it is removed, replaced or
 * made again, the inbox watch moves to the new folder (chokidar never notices a new one).
 */
class InboxFolderWatch {
  private readonly rootWatch: FolderWatch | null
  private inboxWatch: FolderWatch | null = null
  /** The inode of the folder `inboxWatch` watches. */
  private inboxIno = -1
  private closed = false

  constructor(private readonly options: InboxFolderWatchOptions) {
    this.rootWatch = this.start(options.root, (file) => {
      if (file === 'inbox' && this.follow()) options.onFolder()
    })
    this.follow()
  }

  /** Watches the inbox folder if it is not the one watched; returns whether it started anew. */
  follow(): boolean {
    if (this.closed) return false
    let ino: number
    try {
      ino = statSync(this.options.inboxDirectory).ino
    } catch {
      this.stopInbox()
      return false
    }
    if (this.inboxWatch !== null && ino === this.inboxIno) return false
    this.stopInbox()
    this.inboxWatch = this.start(this.options.inboxDirectory, (file) => {
      if (file.endsWith('.jsonl')) this.options.onFile(join(this.options.inboxDirectory, file))
    })
    this.inboxIno = this.inboxWatch === null ? -1 : ino
    return this.inboxWatch !== null
  }

  close(): void {
    this.closed = true
    this.rootWatch?.close()
    this.stopInbox()
  }

  private stopInbox(): void {
    this.inboxWatch?.close()
    this.inboxWatch = null
    this.inboxIno = -1
  }

  private start(directory: string, onFile: (file: string) => void): FolderWatch | null {
    let watcher: FolderWatch
    try {
      watcher = watchFolder(directory, { persistent: false })
    } catch {
      return null
    }
    watcher.on('change', (_event, file) => {
      if (!this.closed && typeof file === 'string') onFile(file)
    })
    // A watched folder that went away: the watch of `.team/` starts the next one.
    watcher.on('error', () => watcher.close())
    return watcher
  }
}
