/**
 * Turns a burst of pokes into one call: `run` comes once the pokes have stopped for `settleMs`,
 * or `maxWaitMs` after the first poke of a burst that goes on, whichever is first. A merge
 * writes a dozen files in a few milliseconds; the branch lines should be read again once, after
 * the last of them, and never later than about a second after the first.
 */
export class Burst {
  private settle: NodeJS.Timeout | null = null
  private deadline: NodeJS.Timeout | null = null
  private stopped = false

  constructor(
    private readonly run: () => void,
    private readonly settleMs: number,
    private readonly maxWaitMs: number,
  ) {}

  poke(): void {
    if (this.stopped) return
    if (this.settle !== null) clearTimeout(this.settle)
    this.settle = this.timer(this.settleMs)
    this.deadline ??= this.timer(this.maxWaitMs)
  }

  /** Drops a pending call; later pokes do nothing. */
  stop(): void {
    this.stopped = true
    this.clear()
  }

  private timer(delayMs: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.clear()
      if (!this.stopped) this.run()
    }, delayMs)
    // A pending refresh is no reason for the process to stay up.
    timer.unref()
    return timer
  }

  private clear(): void {
    if (this.settle !== null) clearTimeout(this.settle)
    if (this.deadline !== null) clearTimeout(this.deadline)
    this.settle = null
    this.deadline = null
  }
}
