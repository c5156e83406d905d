import type { TranscriptRecord } from '../../shared/transcript'
import { undoneRanges } from '../../shared/undo'
import type { AnchorRow } from './turn-anchors'

type UndoRecord = Extract<TranscriptRecord, { kind: 'undo' }>

/** A range of records undone now, with the undo that did it (its id and time, for the badge). */
export interface UndoneRange {
  readonly from: number
  readonly to: number
  readonly undoId: string
  /** Seconds since the epoch. */
  readonly at: number
  readonly by: string
  /** A redo's own range (it undid an undo): it has no Redo of its own here. */
  readonly isRedo: boolean
}

/**
 * The ranges undone now among the loaded records (`undoneRanges` folds them: a redo takes its
 * undo's range back), each with the latest undo record that marks it. An undo record always
 * follows the records it names, so a loaded undone record has its undo loaded too.
 */
export function undoneRangesOf(records: readonly TranscriptRecord[]): UndoneRange[] {
  const undos = records.filter((record): record is UndoRecord => record.kind === 'undo')
  if (undos.length === 0) return []
  return undoneRanges(undos).flatMap(([from, to]) => {
    const undo = undos.findLast((record) => record.from_seq === from && record.to_seq === to)
    if (undo === undefined) return []
    return [
      {
        from,
        to,
        undoId: undo.undo_id,
        at: undo.at,
        by: undo.by,
        isRedo: undo.redo_of !== undefined,
      },
    ]
  })
}

/** How one row is drawn under an undo: muted, and the range's first row carries the badge. */
export interface RowUndone {
  readonly range: UndoneRange
  readonly first: boolean
}

/** Each undone row's mark, by row key (rows of no undone record are left out). */
export function undoneRows(
  rows: readonly AnchorRow[],
  ranges: readonly UndoneRange[],
): Readonly<Record<string, RowUndone>> {
  const marks: Record<string, RowUndone> = {}
  const started: Record<string, true> = {}
  for (const row of rows) {
    if (row.seq === undefined) continue
    const seq = row.seq
    const range = ranges.find((candidate) => seq >= candidate.from && seq <= candidate.to)
    if (range === undefined) continue
    marks[row.key] = { range, first: started[range.undoId] !== true }
    started[range.undoId] = true
  }
  return marks
}
