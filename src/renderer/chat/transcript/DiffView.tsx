import { structuredPatch } from 'diff'
import { memo, useMemo } from 'react'
import { useHighlighter } from '../../ui/markdown/highlighter'

export interface DiffLine {
  readonly kind: 'add' | 'remove' | 'context' | 'gap'
  readonly text: string
}

/** The unified diff of an edit, line by line (three lines of context; a gap between hunks). */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  // A final newline on both sides keeps "\ No newline at end of file" out of a snippet's diff.
  const ending = (text: string) => (text.endsWith('\n') ? text : `${text}\n`)
  const patch = structuredPatch('before', 'after', ending(oldText), ending(newText), '', '', {
    context: 3,
  })
  const lines: DiffLine[] = []
  patch.hunks.forEach((hunk, index) => {
    if (index > 0) lines.push({ kind: 'gap', text: '⋯' })
    for (const line of hunk.lines) {
      const text = line.slice(1)
      if (line.startsWith('+')) lines.push({ kind: 'add', text })
      else if (line.startsWith('-')) lines.push({ kind: 'remove', text })
      else if (line.startsWith(' ')) lines.push({ kind: 'context', text })
    }
  })
  return lines
}

const marks: Readonly<Record<DiffLine['kind'], string>> = {
  add: '+',
  remove: '-',
  context: ' ',
  gap: ' ',
}

/** Past this many lines the diff is shown without highlighting, which is per line. */
const HIGHLIGHTED_LINES = 400

/**
 * An edit_file call as a diff: removed lines in red with "-", added in green with "+", each
 * highlighted in the file's language (line by line: a construct over several lines may show
 * plain).
 */
export const DiffView = memo(function DiffView({
  oldText,
  newText,
  language,
}: {
  readonly oldText: string
  readonly newText: string
  readonly language: string | null
}) {
  const lines = useMemo(() => diffLines(oldText, newText), [oldText, newText])
  const shown = lines.length > HIGHLIGHTED_LINES ? null : language
  const highlighter = useHighlighter()
  if (lines.length === 0) return <p className="muted small">The edit changes nothing.</p>
  return (
    <pre className="diff" aria-label="Changes">
      {lines.map((line, index) => (
        <div key={index} className={`diff-line diff-${line.kind}`}>
          <span className="diff-mark" aria-hidden="true">
            {marks[line.kind]}
          </span>
          <span className="diff-text">
            {line.kind === 'gap' || highlighter === null
              ? line.text
              : highlighter.highlightCode(line.text, shown)}
          </span>
        </div>
      ))}
    </pre>
  )
})
