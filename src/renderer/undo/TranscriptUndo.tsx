import { useMemo, type ReactNode } from 'react'
import type { TranscriptRecord } from '../../shared/transcript'
import type { Checkpoint } from '../../shared/undo'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { formatSeconds, isoFromSeconds, senderName } from '../ui/format'
import { RedoButton } from './RedoButton'
import { checkpointAnchors, type AnchorRow } from './turn-anchors'
import { undoneRangesOf, undoneRows, type RowUndone } from './undone'
import { useCheckpoints } from './useCheckpoints'

export interface TranscriptUndo {
  /** Rows that start a turn with a checkpoint: "Undo this turn and after", by row key. */
  readonly anchors: Readonly<Record<string, Checkpoint>>
  /** Rows of records undone now, by row key. */
  readonly undone: Readonly<Record<string, RowUndone>>
}

/**
 * What a transcript draws of undo: where a turn can be undone from (its checkpoints, read again
 * when the agent's status changes or an undo is recorded) and which rows are undone now.
 */
export function useTranscriptUndo(
  name: string,
  records: readonly TranscriptRecord[],
  rows: readonly AnchorRow[],
): TranscriptUndo {
  const undoRecords = useMemo(
    () => records.filter((record) => record.kind === 'undo').length,
    [records],
  )
  const checkpoints = useCheckpoints(name, undoRecords)
  const firstSeq = records[0]?.seq ?? 1
  const list = checkpoints.status === 'ready' ? checkpoints.checkpoints : null
  const undone = useMemo(() => undoneRows(rows, undoneRangesOf(records)), [rows, records])
  const anchors = useMemo(() => {
    if (list === null) return {}
    const all = checkpointAnchors(rows, list, firstSeq)
    // An undone turn is not offered again: its checkpoint is what its undo went back to.
    return Object.fromEntries(Object.entries(all).filter(([key]) => own(undone, key) === undefined))
  }, [rows, list, firstSeq, undone])
  return { anchors, undone }
}

/**
 * A transcript row as undo draws it: muted under an undo (the range's first row with the
 * "Undone" badge and its time), or with "Undo this turn and after" where a turn's checkpoint is.
 * Any other row is drawn as it is.
 */
export function UndoFrame({
  name,
  anchor,
  undone,
  children,
}: {
  readonly name: string
  readonly anchor: Checkpoint | undefined
  readonly undone: RowUndone | undefined
  readonly children: ReactNode
}) {
  if (anchor === undefined && undone === undefined) return children
  if (undone !== undefined)
    return (
      <div className="undo-frame is-undone" data-undone="true">
        {undone.first ? <UndoneBadge name={name} undone={undone} /> : null}
        <div className="undo-frame-row">{children}</div>
      </div>
    )
  return (
    <div className="undo-frame">
      {anchor === undefined ? null : <TurnUndoButton name={name} checkpoint={anchor} />}
      {children}
    </div>
  )
}

function UndoneBadge({ name, undone }: { readonly name: string; readonly undone: RowUndone }) {
  const { range } = undone
  return (
    <div className="undone-badge" data-testid="undone-badge">
      <span className="undone-chip">Undone</span>
      <span className="small">
        {range.isRedo ? 'by a redo, ' : ''}
        {senderName(range.by)},{' '}
        <time dateTime={isoFromSeconds(range.at)}>{formatSeconds(range.at)}</time> · entries #
        {range.from}–#{range.to}, kept for the record
      </span>
      {range.isRedo ? null : <RedoButton name={name} undoId={range.undoId} />}
    </div>
  )
}

/** Shown on the row that starts a checkpointed turn (on hover or focus). */
function TurnUndoButton({
  name,
  checkpoint,
}: {
  readonly name: string
  readonly checkpoint: Checkpoint
}) {
  const openDialog = useAppStore((state) => state.openDialog)
  const working = useAppStore((state) => own(state.agents, name)?.status === 'working')
  return (
    <button
      type="button"
      className="turn-undo"
      aria-label="Undo this turn and after"
      disabled={working}
      title={
        working
          ? `${name} is working: undo once its turn has ended.`
          : `Undo this turn and everything ${name} did after it (checkpoint ${checkpoint.seq}): shows what would change first`
      }
      onClick={() =>
        openDialog({ kind: 'undo', name, target: { by: 'checkpoint', seq: checkpoint.seq } })
      }
    >
      ↶ Undo from here
    </button>
  )
}
