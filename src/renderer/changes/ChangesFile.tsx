import { useId, useState, useSyncExternalStore, type ReactNode } from 'react'
import { DiffModeEnum, DiffView, SplitSide } from '@git-diff-view/react'
import '@git-diff-view/react/styles/diff-view-pure.css'
import type { ChangedFile } from '../../shared/worktree'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'

export type DiffLayout = 'unified' | 'split'

const STATUS_WORDS: Readonly<Record<string, string>> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
}

/**
 * One changed file: its header and its diff (`PatchDiff`). The "+" beside a line opens a comment
 * for that line.
 */
export function ChangesFile({
  name,
  file,
  layout,
  overlap,
}: {
  readonly name: string
  readonly file: ChangedFile
  readonly layout: DiffLayout
  readonly overlap: readonly string[] | null
}) {
  const status = Object.hasOwn(STATUS_WORDS, file.status) ? STATUS_WORDS[file.status] : file.status
  return (
    <article className="changes-file" data-testid={`changes-file-${file.path}`}>
      <header className="changes-file-header">
        <span className={`changes-status changes-status-${file.status}`}>{status}</span>
        <code className="changes-path">
          {file.oldPath !== null ? `${file.oldPath} → ` : ''}
          {file.path}
        </code>
        <span className="changes-counts">
          <span className="changes-added">+{file.additions}</span>{' '}
          <span className="changes-deleted">−{file.deletions}</span>
        </span>
        {overlap !== null ? (
          <span className="changes-overlap-chip" title="Another teammate's branch changes it too">
            also changed by {overlap.join(', ')}
          </span>
        ) : null}
      </header>
      {file.patch === '' ? (
        <p className="muted small changes-binary">No text diff (a binary file or a mode change).</p>
      ) : (
        <PatchDiff
          path={file.path}
          oldPath={file.oldPath}
          patch={file.patch}
          layout={layout}
          renderComment={({ lineNumber, side, onClose }) => (
            <LineComment
              name={name}
              file={side === SplitSide.old ? (file.oldPath ?? file.path) : file.path}
              line={lineNumber}
              side={side === SplitSide.old ? 'old' : 'new'}
              onClose={onClose}
            />
          )}
        />
      )}
    </article>
  )
}

/**
 * One file's unified diff (`patch`, as git prints it), drawn by @git-diff-view/react with syntax
 * highlighting in the page's theme. With `renderComment`, a "+" beside each line opens what it
 * draws under that line.
 */
export function PatchDiff({
  path,
  oldPath,
  patch,
  layout,
  renderComment,
}: {
  readonly path: string
  readonly oldPath: string | null
  readonly patch: string
  readonly layout: DiffLayout
  readonly renderComment?: (line: {
    lineNumber: number
    side: SplitSide
    onClose: () => void
  }) => ReactNode
}) {
  const theme = usePageTheme()
  return (
    <DiffView<string>
      data={{
        oldFile: { fileName: oldPath ?? path },
        newFile: { fileName: path },
        hunks: [patch],
      }}
      diffViewMode={layout === 'split' ? DiffModeEnum.Split : DiffModeEnum.Unified}
      diffViewTheme={theme}
      diffViewHighlight
      diffViewWrap
      diffViewFontSize={13}
      diffViewAddWidget={renderComment !== undefined}
      {...(renderComment === undefined ? {} : { renderWidgetLine: renderComment })}
    />
  )
}

/**
 * The page's theme (`data-theme` on the root, set by the theme controller), followed live: the
 * diff component draws its colours and highlighting for one theme, given as a prop.
 */
function usePageTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribeToTheme, readTheme)
}

function readTheme(): 'light' | 'dark' {
  return document.documentElement.dataset['theme'] === 'light' ? 'light' : 'dark'
}

function subscribeToTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange)
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
  return () => observer.disconnect()
}

/** The comment box under a line: sent to the teammate's inbox naming the file and line. */
function LineComment({
  name,
  file,
  line,
  side,
  onClose,
}: {
  readonly name: string
  readonly file: string
  readonly line: number
  readonly side: 'old' | 'new'
  readonly onClose: () => void
}) {
  const commentOnLine = useAppStore((state) => state.commentOnLine)
  const command = useCommand(commentOnLine)
  const [text, setText] = useState('')
  const [sent, setSent] = useState(false)
  const id = useId()
  const where =
    side === 'old' ? `${file}, line ${line} (before the change)` : `${file}, line ${line}`
  if (sent)
    return (
      <p className="line-comment line-comment-sent" role="status">
        Sent to {name}: “{text}” on {where}.{' '}
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </p>
    )
  return (
    <form
      className="line-comment"
      onSubmit={(event) => {
        event.preventDefault()
        if (text.trim() === '') return
        void command
          .run({ name, file, line, text: text.trim() })
          .then((outcome) => outcome.ok && setSent(true))
      }}
    >
      <label htmlFor={id} className="small">
        Comment to {name} on {where}
      </label>
      <textarea
        id={id}
        rows={2}
        value={text}
        data-autofocus
        onChange={(event) => setText(event.target.value)}
      />
      <InlineError error={command.error} />
      <div className="form-actions">
        <button type="button" className="button button-small" onClick={onClose}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button-small button-primary"
          disabled={command.pending || text.trim() === ''}
        >
          Send comment
        </button>
      </div>
    </form>
  )
}
