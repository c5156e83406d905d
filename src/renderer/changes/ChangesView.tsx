import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ReviewDiff } from '../../shared/worktree'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { describeFailure, type CommandFailure } from '../store/failures'
import { ChangesActions } from './ChangesActions'
import { ChangesCheck } from './ChangesCheck'
import { ChangesFile, type DiffLayout } from './ChangesFile'
import { ChangesScopePicker, scopeParams, type ChangesScope } from './ChangesScope'
import { InlineError } from '../ui/Dialog'
import { ChangesUndoButtons } from '../undo/UndoButtons'
import './changes.css'

/**
 * A teammate's changes in its own worktree, against its base: every changed file as a diff
 * (unified or side by side, highlighted), scoped to the whole branch, its last turn or one of
 * its tasks. A comment on a line goes to the teammate's inbox; Accept merges, Reject says why.
 */
export function ChangesView({ name }: { readonly name: string }) {
  const getReviewDiff = useAppStore((state) => state.getReviewDiff)
  // A new status (a turn began or ended) may mean new changes: fetched again then.
  const status = useAppStore((state) => own(state.agents, name)?.status)
  // An undo or a redo (or a merge) moved the branch: fetched again then too.
  const branches = useAppStore((state) => state.branchesVersion)
  const requested = useAppStore((state) => state.changesTask)
  const taskChangesShown = useAppStore((state) => state.taskChangesShown)
  const board = useAppStore((state) => state.tasks.tasks)
  const tasks = useMemo(() => board.filter((task) => task.owner === name), [board, name])
  const [scope, setScope] = useState<ChangesScope>(() =>
    requested !== null && requested.name === name
      ? { kind: 'task', task: requested.task }
      : { kind: 'branch' },
  )
  // A task's "Changes" (at mount, or asked again while this view is open): that task's scope,
  // taken once, so that a later visit to this tab opens on the whole branch again.
  useEffect(() => {
    if (requested === null || requested.name !== name) return
    setScope((before) =>
      before.kind === 'task' && before.task === requested.task
        ? before
        : { kind: 'task', task: requested.task },
    )
    taskChangesShown()
  }, [requested, name, taskChangesShown])
  const [layout, setLayout] = useState<DiffLayout>('unified')
  // The diff with the scope it was asked for: while another scope loads, the labels stay true
  // to what is on screen.
  const [loaded, setLoaded] = useState<{ diff: ReviewDiff; scope: ChangesScope } | null>(null)
  const diff = loaded?.diff ?? null
  const shown = loaded?.scope ?? scope
  const shownKey = shown.kind === 'task' ? `task:${shown.task}` : shown.kind
  const [error, setError] = useState<CommandFailure | null>(null)
  const [version, setVersion] = useState(0)
  const reload = useCallback(() => setVersion((value) => value + 1), [])

  useEffect(() => {
    let current = true
    getReviewDiff({ name, ...scopeParams(scope) })
      .then((result) => {
        if (!current) return
        setLoaded({ diff: result, scope })
        setError(null)
      })
      .catch((failure: unknown) => {
        if (!current) return
        setLoaded(null)
        setError(describeFailure(failure))
      })
    return () => {
      current = false
    }
  }, [getReviewDiff, name, scope, status, version, branches])

  const overlapping = diff === null ? [] : Object.entries(diff.overlaps)
  return (
    <section className="changes" aria-label={`${name}'s changes`}>
      <div className="changes-toolbar">
        <ChangesScopePicker scope={scope} tasks={tasks} onPick={setScope} />
        <div className="segmented" role="group" aria-label="Layout">
          <button
            type="button"
            aria-pressed={layout === 'unified'}
            onClick={() => setLayout('unified')}
          >
            Unified
          </button>
          <button
            type="button"
            aria-pressed={layout === 'split'}
            onClick={() => setLayout('split')}
          >
            Side by side
          </button>
        </div>
        <button type="button" className="button button-small" onClick={reload}>
          Refresh
        </button>
        <ChangesUndoButtons name={name} task={scope.kind === 'task' ? scope.task : null} />
      </div>
      <InlineError error={error} />
      <ChangesCheck name={name} />
      {diff === null ? null : (
        <>
          <p className="changes-summary" data-testid="changes-summary">
            <code>{diff.branch}</code> against <code>{diff.base}</code>
            {describeScope(shown)} · {describeCount(diff.files.length)}
          </p>
          {diff.note === undefined ? null : (
            <p className="changes-note" data-testid="changes-note">
              {diff.note}
            </p>
          )}
          {overlapping.length > 0 ? (
            <div className="changes-overlap" role="alert">
              <strong>Overlap:</strong>{' '}
              {overlapping
                .map(([path, names]) => `${path} is also changed by ${names.join(', ')}`)
                .join('; ')}
              . Merge one branch first, then ask the other teammate to take it in.
            </div>
          ) : null}
          {diff.files.length === 0 ? (
            <p className="muted changes-empty">
              {shown.kind === 'turn'
                ? `${name} changed nothing in its last turn.`
                : shown.kind === 'task'
                  ? `${name} changed nothing for task #${shown.task}.`
                  : `${name} has no changes against ${diff.base}.`}
            </p>
          ) : (
            diff.files.map((file) => (
              <ChangesFile
                key={`${shownKey}:${file.path}`}
                name={name}
                file={file}
                layout={layout}
                overlap={own(diff.overlaps, file.path) ?? null}
              />
            ))
          )}
          <ChangesActions name={name} base={diff.base} onMerged={reload} />
        </>
      )}
    </section>
  )
}

function describeScope(scope: ChangesScope): string {
  return scope.kind === 'turn'
    ? ' · last turn'
    : scope.kind === 'task'
      ? ` · task #${scope.task}`
      : ''
}

function describeCount(count: number): string {
  return count === 1 ? '1 file changed' : `${count} files changed`
}
