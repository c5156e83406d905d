import { memo, Suspense } from 'react'
import { lazyComponent } from '../../shell/lazy-component'

/*
 * The Markdown stack (remark, micromark, GFM) is a chunk of its own, requested as soon as this
 * module runs: it loads while the page waits for the team's first data, so the first paint
 * does not evaluate it on the way. Until it is there, text shows as it is, lines kept.
 */
const MarkdownView = lazyComponent(() =>
  import('./MarkdownView').then((module) => module.MarkdownView),
)
void MarkdownView.preload()

/**
 * Model text as GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks), with
 * highlighted code blocks, built as React elements (never dangerouslySetInnerHTML).
 */
export const Markdown = memo(function Markdown({
  text,
  variant = 'full',
}: {
  readonly text: string
  /** 'pane': the dense form of the activity panes. */
  readonly variant?: 'full' | 'pane'
}) {
  const className = variant === 'pane' ? 'markdown markdown-pane' : 'markdown'
  return (
    <Suspense
      fallback={
        <div className={className}>
          <p className="markdown-plain">{text}</p>
        </div>
      }
    >
      <MarkdownView text={text} variant={variant} />
    </Suspense>
  )
})
