import { memo, useMemo } from 'react'
import { CopyButton } from './CopyButton'
import { useHighlighter } from './highlighter'
import { knownLanguage } from './languages'

/** A block of code, highlighted when its language is known, with its language and a copy button. */
export const CodeBlock = memo(function CodeBlock({
  code,
  language,
  title,
}: {
  readonly code: string
  readonly language: string | null
  /** What the bar names instead of the language (a file's path). */
  readonly title?: string | undefined
}) {
  const known = knownLanguage(language)
  const highlighter = useHighlighter()
  const highlighted = useMemo(
    () => (highlighter === null ? code : highlighter.highlightCode(code, known)),
    [highlighter, code, known],
  )
  const label = title ?? language ?? ''
  return (
    <div className="code-block" data-language={known ?? undefined}>
      <div className="code-block-bar">
        <span className="code-language">{label}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      <pre className="code-block-pre">
        <code className={known === null ? 'hljs' : `hljs language-${known}`}>{highlighted}</code>
      </pre>
    </div>
  )
})

/** Highlighted code alone, for the dense activity panes. */
export const PlainCode = memo(function PlainCode({
  code,
  language,
}: {
  readonly code: string
  readonly language: string | null
}) {
  const known = knownLanguage(language)
  const highlighter = useHighlighter()
  const highlighted = useMemo(
    () => (highlighter === null ? code : highlighter.highlightCode(code, known)),
    [highlighter, code, known],
  )
  return (
    <pre className="code-plain">
      <code className={known === null ? 'hljs' : `hljs language-${known}`}>{highlighted}</code>
    </pre>
  )
})
