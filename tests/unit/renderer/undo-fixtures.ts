import type { TranscriptRecord } from '../../../src/shared/transcript'
import type { Checkpoint, UndoPlan } from '../../../src/shared/undo'

/* Undo's shapes for the window's tests: a checkpoint, a plan, an undo record. */

/** Checkpoint `seq`, taken before record `turnSeq`. */
export function checkpoint(seq: number, turnSeq: number, task: string | null = null): Checkpoint {
  return { seq, turnSeq, at: 1_700_000_000 + seq, commit: `c${seq}`, head: `h${seq}`, task }
}

/** A plan of alice's last turn: two files of hers, two flagged (bob's and the person's). */
export function plan(change: Partial<UndoPlan> = {}): UndoPlan {
  return {
    name: 'alice',
    target: { by: 'turns', turns: 1 },
    checkpoint: checkpoint(3, 12),
    files: [
      { path: 'src/a.ts', change: 'M', patch: 'diff a', changedBy: null },
      { path: 'src/b.ts', change: 'D', patch: 'diff b', changedBy: null },
      { path: 'src/c.ts', change: 'A', patch: 'diff c', changedBy: 'bob' },
      { path: 'NOTES.md', change: 'M', patch: 'diff n', changedBy: 'user' },
    ],
    turns: { from: 12, to: 20 },
    commits: { count: 0, action: 'none', reason: null },
    notCovered: [],
    planId: 'plan-1',
    ...change,
  }
}

/** An undo record (a redo with `redoOf`) by the person, written at second 1_700_000_000 + seq. */
export function undoRecord(
  seq: number,
  undoId: string,
  from: number,
  to: number,
  redoOf?: string,
): TranscriptRecord {
  return {
    v: 1,
    seq,
    at: 1_700_000_000 + seq,
    kind: 'undo',
    undo_id: undoId,
    from_seq: from,
    to_seq: to,
    checkpoint: 1,
    ...(redoOf === undefined ? {} : { redo_of: redoOf }),
    restored: ['a.ts'],
    kept: [],
    reset_to: null,
    by: 'user',
  }
}
