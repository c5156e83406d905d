import type { TranscriptRecord } from '../../shared/transcript'
import { formatSeconds, isoFromSeconds, senderName } from '../ui/format'
import { RedoButton } from './RedoButton'

type UndoRecord = Extract<TranscriptRecord, { kind: 'undo' }>

/**
 * An undo in the transcript, where it happened: who undid which entries, what it restored and
 * kept, and Redo while no redo has taken it back. A redo reads the same way, as the undo of an
 * undo.
 */
export function UndoRecordRow({
  agent,
  record,
  redone,
}: {
  readonly agent: string
  readonly record: UndoRecord
  readonly redone: boolean
}) {
  const redo = record.redo_of !== undefined
  const who = senderName(record.by)
  const files = `${record.restored.length} file${record.restored.length === 1 ? '' : 's'}`
  return (
    <div className="status-line undo-line" data-testid="undo-line">
      <span>{redo ? 'Redo' : 'Undo'}</span>
      <span className="status-line-reason">
        {redo
          ? `${who} redid what an undo took back: ${files} put back`
          : `${who} undid entries #${record.from_seq}–#${record.to_seq}: ${files} restored to checkpoint ${record.checkpoint}`}
        {record.kept.length === 0 ? '' : `; kept as others left them: ${record.kept.join(', ')}`}
        {record.reset_to === null
          ? ''
          : `; ${agent}'s branch reset to ${record.reset_to.slice(0, 10)}`}
        {redone ? ' (redone since)' : ''}
      </span>
      <time className="turn-time" dateTime={isoFromSeconds(record.at)}>
        {formatSeconds(record.at)}
      </time>
      {redo || redone ? null : <RedoButton name={agent} undoId={record.undo_id} />}
    </div>
  )
}
