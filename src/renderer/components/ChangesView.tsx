import { useCallback, useEffect, useState } from 'react'
import type { ReviewDiff } from '../../shared/worktree'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { describeFailure, type CommandFailure } from '../store/failures'
import { ChangesActions } from './ChangesActions'
import { ChangesFile, type DiffLayout } from './ChangesFile'
import { InlineError } from './Dialog'
import './changes.css'

type Scope = 'branch' | 'turn'

/**
 * A teammate's changes in its own worktree, against its base: every changed file as a diff
 * (unified or side by side, highlighted), scoped to the whole branch or its last turn. A
 * comment on a line goes to the teammate's inbox; Accept merges, Reject says why.
 */
export function ChangesView({ name }: { readonly name: string }) {
  const getReviewDiff = useAppStore((state) => state.getReviewDiff)
  // A new status (a turn began or ended) may mean new changes: fetched again then.
  const status = useAppStore((state) => own(state.agents, name)?.status)
  const [scope, setScope] = useState<Scope>('branch')
  const [layout, setLayout] = useState<DiffLayout>('unified')
  const [diff, setDiff] = useState<ReviewDiff | null>(null)
  const [error, setError] = useState<CommandFailure | null>(null)
  const [version, setVersion] = useState(0)
  const reload = useCallback(() => setVersion((value) => value + 1), [])

  useEffect(() => {
    let current = true
    getReviewDiff({ name, scope })
      .then((result) => {
        if (!current) return
        setDiff(result)
        setError(null)
      })
      .catch((failure: unknown) => {
        if (!current) return
        setDiff(null)
        setError(describeFailure(failure))
      })
    return () => {
      current = false
    }
  }, [getReviewDiff, name, scope, status, version])

  const overlapping = diff === null ? [] : Object.entries(diff.overlaps)
  return (
    <section className="changes" aria-label={`${name}'s changes`}>
      <div className="changes-toolbar">
        <div className="segmented" role="group" aria-label="Scope">
          <ScopeButton scope="branch" current={scope} onPick={setScope} label="Whole branch" />
          <ScopeButton scope="turn" current={scope} onPick={setScope} label="Last turn" />
        </div>
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
      </div>
      <InlineError error={error} />
      {diff === null ? null : (
        <>
          <p className="changes-summary" data-testid="changes-summary">
            <code>{diff.branch}</code> against <code>{diff.base}</code>
            {diff.scope === 'turn' ? ' · last turn' : ''} · {describeCount(diff.files.length)}
          </p>
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
              {diff.scope === 'turn'
                ? `${name} changed nothing in its last turn.`
                : `${name} has no changes against ${diff.base}.`}
            </p>
          ) : (
            diff.files.map((file) => (
              <ChangesFile
                key={`${diff.scope}:${file.path}`}
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

function ScopeButton({
  scope,
  current,
  onPick,
  label,
}: {
  readonly scope: Scope
  readonly current: Scope
  readonly onPick: (scope: Scope) => void
  readonly label: string
}) {
  return (
    <button type="button" aria-pressed={scope === current} onClick={() => onPick(scope)}>
      {label}
    </button>
  )
}

function describeCount(count: number): string {
  return count === 1 ? '1 file changed' : `${count} files changed`
}
