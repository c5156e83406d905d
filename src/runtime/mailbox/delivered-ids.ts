import { existsSync, readFileSync } from 'node:fs'
import { appendOnceSync, writeFileAtomicSync } from '../fs/durable'

/**
 * `mailbox/<name>/delivered-ids.txt`: the ids a consumer without records of its own delivered
 * (`agent-teams drain`, whose records are what it printed), one JSON string a line (an id may
 * hold any character, a newline too), so that a repeated id is
 * refused in a later run too, as an agent refuses it from its transcript. Written only by the one
 * consumer of the inbox (it holds the consumer lock), before its cursor moves.
 */
export class DeliveredIdsLog {
  private constructor(
    private readonly path: string,
    /** The ids read at open, oldest first. */
    readonly ids: string[],
  ) {}

  /** Reads the last ids kept (at most `keep`); compacts the file when it has grown to twice that. */
  static open(path: string, keep: number): DeliveredIdsLog {
    const all = readIds(path)
    const recent = all.slice(-keep)
    const log = new DeliveredIdsLog(path, recent)
    if (all.length >= 2 * keep) log.rewrite(recent)
    return log
  }

  /** Appends the ids of a batch, durably: a crash after the cursor moved must not forget them. */
  append(ids: readonly string[]): void {
    if (ids.length === 0) return
    appendOnceSync(this.path, idLines(ids), { durable: true })
  }

  private rewrite(ids: readonly string[]): void {
    writeFileAtomicSync(this.path, idLines(ids))
  }
}

function idLines(ids: readonly string[]): string {
  return ids.map((id) => `${JSON.stringify(id)}\n`).join('')
}

/**
 * The ids of a log (none when it does not exist). A torn last line of a crash, or a line that is
 * not a JSON string (a hand edit), is left out: the ids are a guard against repeats, not records.
 */
export function readIds(path: string): string[] {
  if (!existsSync(path)) return []
  const text = readFileSync(path, 'utf8')
  const ids: string[] = []
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    try {
      const id: unknown = JSON.parse(line)
      if (typeof id === 'string') ids.push(id)
    } catch {
      // Skipped, as above.
    }
  }
  return ids
}
