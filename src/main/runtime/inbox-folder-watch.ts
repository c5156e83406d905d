import { statSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'

export interface InboxFolderWatchOptions {
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
export class InboxFolderWatch {
  private readonly rootWatch: FSWatcher | null
  private inboxWatch: FSWatcher | null = null
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

  private start(directory: string, onFile: (file: string) => void): FSWatcher | null {
    let watcher: FSWatcher
    try {
      watcher = watch(directory, { persistent: false })
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
