import type { Checkpoint } from '../../shared/undo'

/** What the anchoring needs of a transcript row: its key and the record it was drawn from. */
export interface AnchorRow {
  readonly key: string
  readonly seq?: number
}

/**
 * Where the transcript offers "Undo this turn and after": for each checkpoint, the first row
 * drawn from its turn's records (seq at or after the checkpoint's `turnSeq`), by row key. When
 * several checkpoints fall before one row (their turns drew no row of their own), the row takes
 * the latest, so that the undo takes back no more than the row's turn and what followed. A
 * checkpoint taken before the loaded records (`firstLoadedSeq`) anchors nothing yet: its turn's
 * row is on a page not loaded. Only checkpoints taken before a model turn anchor one: one taken
 * as the agent went to rest, or before an undo, starts no turn of the agent's.
 */
export function checkpointAnchors(
  rows: readonly AnchorRow[],
  checkpoints: readonly Checkpoint[],
  firstLoadedSeq: number,
): Readonly<Record<string, Checkpoint>> {
  const sorted = checkpoints
    .filter((checkpoint) => isTurnCheckpoint(checkpoint) && checkpoint.turnSeq >= firstLoadedSeq)
    .toSorted((a, b) => a.turnSeq - b.turnSeq)
  const anchors: Record<string, Checkpoint> = {}
  let next = 0
  for (const row of rows) {
    if (row.seq === undefined) continue
    let latest: Checkpoint | null = null
    while (next < sorted.length && (sorted[next]?.turnSeq ?? Infinity) <= row.seq) {
      latest = sorted[next] ?? null
      next += 1
    }
    if (latest !== null) anchors[row.key] = latest
  }
  return anchors
}

/** Taken before a model turn (the first shapes had no kind: those were all such). */
function isTurnCheckpoint(checkpoint: Checkpoint): boolean {
  return checkpoint.kind === undefined || checkpoint.kind === 'turn'
}
