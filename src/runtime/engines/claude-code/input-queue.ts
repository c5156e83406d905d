/**
 * The session's input: an async iterable the SDK reads user messages from, fed while the session
 * runs. No library gives a closable push queue as an AsyncIterable; this is ten lines of it.
 */
export class InputQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = []
  private waiting: ((result: IteratorResult<T>) => void) | null = null
  private closed = false

  push(item: T): void {
    if (this.closed) return
    const waiting = this.waiting
    this.waiting = null
    if (waiting) waiting({ value: item, done: false })
    else this.items.push(item)
  }

  close(): void {
    this.closed = true
    const waiting = this.waiting
    this.waiting = null
    waiting?.({ value: undefined, done: true })
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift()
        if (item !== undefined) return Promise.resolve({ value: item, done: false })
        if (this.closed) return Promise.resolve({ value: undefined, done: true })
        return new Promise((resolve) => {
          this.waiting = resolve
        })
      },
    }
  }
}
