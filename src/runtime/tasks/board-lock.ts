import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import { acquireFileLock } from '../fs/file-lock'

/** How long a board operation waits for another process's operation before it gives up. */
const LOCK_WAIT_MS = 15_000

const sleeper = new Int32Array(new SharedArrayBuffer(4))

/**
 * Runs `operation` holding the board's lock, `.team/tasks/board.lock`: an O_EXCL file naming its
 * process, taken over when that process is gone (a claimer SIGKILLed mid-claim never blocks the
 * board). Every change to the board reads and writes under it, which is what makes a claim a
 * compare-and-swap across processes. Operations take milliseconds, so waiting is a short
 * synchronous back-off rather than a queue.
 */
export function withBoardLock<T>(directory: string, operation: () => T): T {
  const path = join(directory, 'board.lock')
  const deadline = Date.now() + LOCK_WAIT_MS
  let holder = 'another process'
  for (let attempt = 0; ; attempt++) {
    let lock
    try {
      lock = acquireFileLock(path, 'change the task board', (who) => (holder = who), 'board-busy')
    } catch (error) {
      if (!(error instanceof TeamError) || error.code !== 'board-busy') throw error
      if (Date.now() > deadline)
        throw new TeamError(
          'board-busy',
          `The task board is busy: ${holder} has held ${path} for over ${LOCK_WAIT_MS / 1000} s. If that process is stuck, end it and try again.`,
        )
      // Random back-off, growing to 20 ms: eight claimers at once do not retry in step.
      Atomics.wait(sleeper, 0, 0, 1 + Math.random() * Math.min(20, 2 + attempt))
      continue
    }
    try {
      return operation()
    } finally {
      lock.release()
    }
  }
}
