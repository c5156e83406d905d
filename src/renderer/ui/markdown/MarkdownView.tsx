import type { Element, ElementContent } from 'hast'
import { memo } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { CodeBlock, PlainCode } from './CodeBlock'

/** The only links that leave the app: the web and mail (main's link policy decides the rest). */
const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:']

/** A link's address when it is absolute and of an allowed scheme; otherwise no link at all. */
export function safeUrl(url: string): string | null {
  try {
    return LINK_PROTOCOLS.includes(new URL(url).protocol) ? url : null
  } catch {
    return null
  }
}

function textOf(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) => ('value' in node ? node.value : 'children' in node ? textOf(node.children) : ''))
    .join('')
}

/** A fenced block: its text and the language of its info string (`language-ts`). */
function fencedCode(pre: Element | undefined): { code: string; language: string | null } {
  const code = pre?.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  )
  const classes = code?.properties['className']
  const language = Array.isArray(classes)
    ? classes.map(String).find((name) => name.startsWith('language-'))
    : undefined
  return {
    code: textOf(code?.children ?? []).replace(/\n$/, ''),
    language: language?.slice('language-'.length) ?? null,
  }
}

/*
 * Model text is hostile: raw HTML shows as text (react-markdown never renders it), links open
 * outside the app through main's link policy (target=_blank), images are not fetched (the CSP
 * allows no remote image) but shown as links, and headings sit below the view's own titles.
 */
const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === 'string' && src !== '' ? (
      <a href={src} target="_blank" rel="noreferrer noopener">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  pre: ({ node }) => {
    const { code, language } = fencedCode(node)
    return <CodeBlock code={code} language={language} />
  },
  table: ({ children }) => (
    <div className="markdown-table">
      <table>{children}</table>
    </div>
  ),
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h6>{children}</h6>,
  h5: ({ children }) => <h6>{children}</h6>,
}

/** In an activity pane: code highlighted but without the bar (no room, nothing to copy from). */
const paneComponents: Components = {
  ...components,
  pre: ({ node }) => {
    const { code, language } = fencedCode(node)
    return <PlainCode code={code} language={language} />
  },
}

const remarkPlugins = [remarkGfm]

/**
 * Model text as GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks), with
 * highlighted code blocks, built as React elements (never dangerouslySetInnerHTML).
 */
export const MarkdownView = memo(function MarkdownView({
  text,
  variant = 'full',
}: {
  readonly text: string
  /** 'pane': the dense form of the activity panes. */
  readonly variant?: 'full' | 'pane'
}) {
  return (
    <div className={variant === 'pane' ? 'markdown markdown-pane' : 'markdown'}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        components={variant === 'pane' ? paneComponents : components}
        urlTransform={safeUrl}
      >
        {text}
      </ReactMarkdown>
    </div>
  )
})
