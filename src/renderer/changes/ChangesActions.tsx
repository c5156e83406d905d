import { useId, useState } from 'react'
import type { MergeResult } from '../../shared/worktree'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'

/**
 * Accept (merge into the base, or a branch the person names, with a merge commit or a squash)
 * and Reject (the reason goes to the teammate). A conflict lists its files and can be handed
 * back to the teammate to resolve in its worktree.
 */
export function ChangesActions({
  name,
  base,
  onMerged,
}: {
  readonly name: string
  readonly base: string
  readonly onMerged: () => void
}) {
  const mergeTeammate = useAppStore((state) => state.mergeTeammate)
  const rejectChanges = useAppStore((state) => state.rejectChanges)
  const handBackConflict = useAppStore((state) => state.handBackConflict)
  const merge = useCommand(mergeTeammate)
  const reject = useCommand(rejectChanges)
  const handBack = useCommand(handBackConflict)
  const [squash, setSquash] = useState(false)
  const [into, setInto] = useState(base)
  const [reason, setReason] = useState('')
  const [result, setResult] = useState<MergeResult | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const ids = { squash: useId(), into: useId(), reason: useId() }
  const target = into.trim() === '' ? base : into.trim()

  async function accept(confirm = false): Promise<void> {
    setNotice(null)
    const outcome = await merge.run({
      name,
      squash,
      ...(target === base ? {} : { into: target }),
      ...(confirm ? { confirm: true } : {}),
    })
    if (!outcome.ok) return
    setResult(outcome.value)
    if (outcome.value.outcome === 'merged') onMerged()
  }

  return (
    <div className="changes-actions" aria-label="Review">
      <div className="changes-accept">
        <label className="toggle" htmlFor={ids.squash}>
          <input
            id={ids.squash}
            type="checkbox"
            checked={squash}
            onChange={(event) => setSquash(event.target.checked)}
          />
          <span>Squash into one commit</span>
        </label>
        <label htmlFor={ids.into} className="small">
          Into
        </label>
        <input
          id={ids.into}
          className="changes-into"
          value={into}
          spellCheck={false}
          onChange={(event) => setInto(event.target.value)}
        />
        <button
          type="button"
          className="button button-primary"
          disabled={merge.pending}
          onClick={() => void accept()}
        >
          {merge.pending ? 'Merging…' : `Accept: merge into ${target}`}
        </button>
      </div>
      <InlineError error={merge.error} />
      {result !== null ? (
        <MergeOutcome
          name={name}
          result={result}
          handingBack={handBack.pending}
          merging={merge.pending}
          onConfirm={() => void accept(true)}
          onHandBack={async (files) => {
            const outcome = await handBack.run({ name, into: result.into, files })
            if (outcome.ok) setNotice(`Handed the conflict back to ${name}.`)
          }}
        />
      ) : null}
      <InlineError error={handBack.error} />
      <form
        className="changes-reject"
        onSubmit={(event) => {
          event.preventDefault()
          if (reason.trim() === '') return
          void reject.run({ name, reason: reason.trim() }).then((outcome) => {
            if (!outcome.ok) return
            setReason('')
            setNotice(`Told ${name} its changes were not accepted.`)
          })
        }}
      >
        <label htmlFor={ids.reason} className="small">
          Reject, saying why
        </label>
        <input
          id={ids.reason}
          value={reason}
          placeholder="What is missing or wrong?"
          onChange={(event) => setReason(event.target.value)}
        />
        <button
          type="submit"
          className="button button-danger"
          disabled={reject.pending || reason.trim() === ''}
        >
          Reject
        </button>
      </form>
      <InlineError error={reject.error} />
      {notice !== null ? (
        <p className="changes-notice" role="status">
          {notice}
        </p>
      ) : null}
    </div>
  )
}

function MergeOutcome({
  name,
  result,
  handingBack,
  merging,
  onConfirm,
  onHandBack,
}: {
  readonly name: string
  readonly result: MergeResult
  readonly handingBack: boolean
  readonly merging: boolean
  readonly onConfirm: () => void
  readonly onHandBack: (files: string[]) => Promise<void>
}) {
  switch (result.outcome) {
    case 'merged':
      return (
        <p className="changes-notice" role="status">
          Merged into {result.into}
          {result.squash ? ' as one commit' : ''} ({result.commit.slice(0, 10)}):{' '}
          {result.files.join(', ')}.
        </p>
      )
    case 'nothing':
      return (
        <p className="changes-notice" role="status">
          Nothing to merge: {result.into} already has all of {name}’s changes.
        </p>
      )
    case 'conflict':
      return (
        <div className="changes-conflict" role="alert">
          <p>
            <strong>Conflict</strong> with {result.into} in:
          </p>
          <ul>
            {result.files.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
          <p className="small">Nothing was merged; {result.into} is as it was.</p>
          {result.handed_back === true ? (
            <p className="small" role="status">
              Sent to {name} to resolve (the conflicts reaction is on).
            </p>
          ) : (
            <button
              type="button"
              className="button"
              disabled={handingBack}
              onClick={() => void onHandBack(result.files)}
            >
              Hand back to {name} to resolve
            </button>
          )}
        </div>
      )
    case 'refused':
      return (
        <div className="changes-conflict" role="alert">
          <p>
            <strong>Not merged.</strong> {result.reason}
          </p>
          <FileList files={result.files} />
        </div>
      )
    case 'needs-confirmation':
      return (
        <div className="changes-conflict" role="alert">
          <p>
            <strong>Check before merging:</strong> these files change how git or the app behaves
            (what runs, what agents are told, which servers start):
          </p>
          <FileList files={result.files} />
          <p className="small">Nothing was merged yet. Read them in the diff above first.</p>
          <button type="button" className="button" disabled={merging} onClick={onConfirm}>
            Merge anyway into {result.into}
          </button>
        </div>
      )
  }
}

function FileList({ files }: { readonly files: readonly string[] }) {
  return (
    <ul>
      {files.map((file) => (
        <li key={file}>
          <code>{file}</code>
        </li>
      ))}
    </ul>
  )
}
