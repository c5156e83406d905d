import type { UndoResult } from '../../shared/undo'

/** What an undo (or its redo) did: its summary, the files restored and those left alone. */
export function UndoResultView({
  name,
  result,
  done,
}: {
  readonly name: string
  readonly result: UndoResult
  readonly done: 'undone' | 'redone'
}) {
  return (
    <div className="undo-result" role="status" data-testid={`undo-${done}`}>
      <p>
        <strong>{done === 'undone' ? 'Undone.' : 'Redone.'}</strong> {result.summary}
      </p>
      {result.restored.length === 0 ? null : (
        <FileList
          title={done === 'undone' ? 'Restored' : 'Put back as they were before the undo'}
          files={result.restored}
        />
      )}
      {result.kept.length === 0 ? null : (
        <FileList title="Left as they are (changed by someone else)" files={result.kept} />
      )}
      {result.resetTo === null ? null : (
        <p className="small">
          {name}&rsquo;s branch now points at <code>{result.resetTo.slice(0, 10)}</code>.
        </p>
      )}
      {done === 'undone' ? (
        <p className="muted small">
          The undone entries stay in {name}&rsquo;s transcript, marked Undone. Redo puts everything
          back as it was before the undo.
        </p>
      ) : null}
    </div>
  )
}

function FileList({ title, files }: { readonly title: string; readonly files: readonly string[] }) {
  return (
    <div className="undo-result-files">
      <span className="small">{title}:</span>
      <ul>
        {files.map((file) => (
          <li key={file}>
            <code>{file}</code>
          </li>
        ))}
      </ul>
    </div>
  )
}
