import type { TeamEvent } from '../../shared/events'
import type { TaskBoardView } from '../../shared/tasks'
import type { TaskBoard } from './task-board'

/**
 * Turns changes of `.team/tasks/` (the runtime's own, and other programs' seen by the watcher)
 * into `tasks-changed` events carrying the whole board: at most one a tick, and none when the
 * board reads as it did (the runtime's own write is seen twice: once done, once by the watcher).
 */
export class TaskFeed {
  private last = ''
  private pending: NodeJS.Immediate | null = null
  private closed = false

  constructor(
    private readonly board: TaskBoard,
    private readonly emit: (event: TeamEvent) => void,
  ) {
    this.last = JSON.stringify(this.read())
  }

  /** The board as last read (for snapshots). */
  current(): TaskBoardView {
    return JSON.parse(this.last) as TaskBoardView
  }

  /** Something under `.team/tasks/` may have changed: read it at the end of this tick. */
  changed(): void {
    if (this.closed) return
    this.pending ??= setImmediate(() => {
      this.pending = null
      this.refresh()
    })
  }

  /** Reads the board now and reports it if it changed. */
  refresh(): void {
    if (this.closed) return
    const board = this.read()
    const text = JSON.stringify(board)
    if (text === this.last) return
    this.last = text
    this.emit({ type: 'tasks-changed', board })
  }

  close(): void {
    this.closed = true
    if (this.pending) clearImmediate(this.pending)
    this.pending = null
  }

  private read(): TaskBoardView {
    try {
      return this.board.list()
    } catch (error) {
      // The folder itself unreadable (a file in its place): one problem, and the board empty.
      return {
        tasks: [],
        problems: [
          {
            file: this.board.directory,
            message: `The task board cannot be read: ${error instanceof Error ? error.message : String(error)}`,
          },
        ],
      }
    }
  }
}
