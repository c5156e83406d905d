import { existsSync, readFileSync } from 'node:fs'
import { appendOnceSync, writeFileAtomicSync } from '../fs/durable'

/**
 * `mailbox/<name>/delivered-ids.txt`: the ids a consumer without records of its own delivered
 * (`agent-teams drain`, whose records are what it printed), one a line, so that a repeated id is
 * refused in a later run too, as an agent refuses it from its transcript. Written only by the one
 * consumer of the inbox (it holds the consumer lock), before its cursor moves.
 */
export class DeliveredIdsLog {
  private count: number

  private constructor(
    private readonly path: string,
    private readonly keep: number,
    readonly ids: string[],
  ) {
    this.count = ids.length
  }

  /** Reads the last ids kept (at most `keep`); compacts the file when it has grown to twice that. */
  static open(path: string, keep: number): DeliveredIdsLog {
    const all = readIds(path)
    const recent = all.slice(-keep)
    const log = new DeliveredIdsLog(path, keep, recent)
    if (all.length >= 2 * keep) log.rewrite(recent)
    return log
  }

  /** Appends the ids of a batch, durably: a crash after the cursor moved must not forget them. */
  append(ids: readonly string[]): void {
    if (ids.length === 0) return
    appendOnceSync(this.path, `${ids.join('\n')}\n`, { durable: true })
    this.count += ids.length
  }

  private rewrite(ids: readonly string[]): void {
    writeFileAtomicSync(this.path, ids.length > 0 ? `${ids.join('\n')}\n` : '')
    this.count = ids.length
  }

  get size(): number {
    return this.count
  }
}

/** The ids of a log (none when it does not exist); a torn last line of a crash is left out. */
export function readIds(path: string): string[] {
  if (!existsSync(path)) return []
  const text = readFileSync(path, 'utf8')
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((id) => id.length > 0)
}
