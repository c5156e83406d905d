import { useState } from 'react'
import { USER } from '../../shared/names'
import type { UndoFile, UndoPlan } from '../../shared/undo'
import { PatchDiff } from '../changes/ChangesFile'
import { formatSeconds, isoFromSeconds } from '../ui/format'
import { CHANGE_WORDS, planView, textAndCode } from './undo-plan'

/** Above this many files, each file's diff starts folded: the list is read first. */
const OPEN_DIFFS_UP_TO = 4

/**
 * What an undo would change, before it is done: the files it restores (with their diffs), the
 * files someone else changed since (kept unless ticked), what becomes of the agent's commits,
 * the ignored files it does not cover, and the transcript entries it marks undone.
 */
export function UndoPlanView({
  plan,
  overwrite,
  onOverwrite,
}: {
  readonly plan: UndoPlan
  /** The flagged files the person ticked "overwrite anyway". */
  readonly overwrite: ReadonlySet<string>
  readonly onOverwrite: (path: string, chosen: boolean) => void
}) {
  const view = planView(plan)
  const open = plan.files.length <= OPEN_DIFFS_UP_TO
  const { checkpoint } = plan
  return (
    <div className="undo-plan" data-testid="undo-plan">
      <p className="undo-lead">
        Back to checkpoint {checkpoint.seq}, taken{' '}
        <time dateTime={isoFromSeconds(checkpoint.at)}>{formatSeconds(checkpoint.at)}</time> before
        entry #{checkpoint.turnSeq}
        {checkpoint.task === null ? '' : ` (task #${checkpoint.task})`}.
      </p>
      {view.refusal === null ? null : (
        <div className="undo-refusal" role="alert" data-testid="undo-refusal">
          <p>
            <strong>Cannot undo:</strong> {view.commits}
          </p>
          <p>
            {textAndCode(view.refusal).map((part, index) =>
              part.code ? <code key={index}>{part.text}</code> : part.text,
            )}
          </p>
        </div>
      )}
      <section aria-label="Files the undo restores">
        <h3>What the undo changes</h3>
        {view.restores.length === 0 ? (
          <p className="muted small">
            No file of {plan.name}&rsquo;s to restore: they are as they were then.
          </p>
        ) : (
          view.restores.map((file) => <UndoFileItem key={file.path} file={file} open={open} />)
        )}
      </section>
      {view.conflicts.length === 0 ? null : (
        <section className="undo-conflicts" aria-label="Changed by someone else since">
          <h3>Changed by someone else since</h3>
          <p className="small">
            The undo leaves these as they are, unless you tick &ldquo;Overwrite anyway&rdquo;: then
            their changes since are lost too.
          </p>
          {view.conflicts.map((file) => (
            <UndoFileItem
              key={file.path}
              file={file}
              open={open}
              overwrite={{
                chosen: overwrite.has(file.path),
                onChange: (chosen) => onOverwrite(file.path, chosen),
              }}
            />
          ))}
        </section>
      )}
      {view.commits === null || view.refusal !== null ? null : (
        <p className="undo-commits" data-testid="undo-commits">
          {view.commits}
        </p>
      )}
      {plan.notCovered.length === 0 ? null : (
        <details className="undo-not-covered">
          <summary>
            {plan.notCovered.length === 1
              ? '1 ignored file is not covered'
              : `${plan.notCovered.length} ignored files are not covered`}{' '}
            (git ignores them: left as they are)
          </summary>
          <ul>
            {plan.notCovered.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="undo-turns small" data-testid="undo-turns">
        {view.turns} {plan.name} is told in its inbox what was undone.
      </p>
    </div>
  )
}

function UndoFileItem({
  file,
  open,
  overwrite,
}: {
  readonly file: UndoFile
  readonly open: boolean
  readonly overwrite?: { readonly chosen: boolean; readonly onChange: (chosen: boolean) => void }
}) {
  const [shown, setShown] = useState(open)
  return (
    <article
      className={
        file.changedBy === null
          ? 'changes-file undo-file'
          : 'changes-file undo-file undo-file-flagged'
      }
      data-testid={`undo-file-${file.path}`}
    >
      <header className="changes-file-header">
        {overwrite === undefined || overwrite.chosen ? (
          <span className={`undo-change undo-change-${file.change}`}>
            {CHANGE_WORDS[file.change]}
          </span>
        ) : (
          <span className="undo-change" title="Left as it is unless you tick Overwrite anyway">
            kept
          </span>
        )}
        <code className="changes-path">{file.path}</code>
        {file.changedBy === null ? null : (
          <span className="undo-flag" title="Changed since the undone turns by someone else">
            changed by {file.changedBy === USER ? 'you' : file.changedBy} since
          </span>
        )}
        <span className="undo-file-tools">
          {overwrite === undefined ? null : (
            <label className="toggle undo-overwrite">
              <input
                type="checkbox"
                checked={overwrite.chosen}
                onChange={(event) => overwrite.onChange(event.target.checked)}
              />
              <span>Overwrite anyway</span>
            </label>
          )}
          {file.patch === '' ? null : (
            <button
              type="button"
              className="link-button"
              aria-expanded={shown}
              onClick={() => setShown(!shown)}
            >
              {shown ? 'Hide diff' : 'Show diff'}
            </button>
          )}
        </span>
      </header>
      {file.patch === '' ? (
        <p className="muted small changes-binary">No text diff (a binary file or a mode change).</p>
      ) : shown ? (
        <PatchDiff path={file.path} oldPath={null} patch={file.patch} layout="unified" />
      ) : null}
    </article>
  )
}
