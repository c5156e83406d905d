import { memo, useMemo, type ReactNode } from 'react'
import { assertNever } from '../../shared/errors'
import { parseMarkdown, type Block, type Inline } from './parse'

/** Model text as Markdown, built from React elements only (never dangerouslySetInnerHTML). */
export const Markdown = memo(function Markdown({ text }: { readonly text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text])
  return <div className="markdown">{blocks.map(renderBlock)}</div>
})

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.kind) {
    case 'heading': {
      const Tag = `h${Math.min(6, block.level + 2)}` as 'h3'
      return <Tag key={key}>{renderInlines(block.children)}</Tag>
    }
    case 'paragraph':
      return <p key={key}>{renderInlines(block.children)}</p>
    case 'code':
      return (
        <pre key={key} className="code-block" data-language={block.language || undefined}>
          {block.language ? <span className="code-language">{block.language}</span> : null}
          <code>{block.text}</code>
        </pre>
      )
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{renderInlines(item)}</li>)
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      )
    }
    case 'quote':
      return <blockquote key={key}>{block.children.map(renderBlock)}</blockquote>
    case 'rule':
      return <hr key={key} />
    default:
      return assertNever(block, 'markdown block')
  }
}

function renderInlines(inlines: readonly Inline[]): ReactNode[] {
  return inlines.map(renderInline)
}

function renderInline(inline: Inline, key: number): ReactNode {
  switch (inline.kind) {
    case 'text':
      return inline.text
    case 'code':
      return <code key={key}>{inline.text}</code>
    case 'strong':
      return <strong key={key}>{renderInlines(inline.children)}</strong>
    case 'emphasis':
      return <em key={key}>{renderInlines(inline.children)}</em>
    case 'link':
      return (
        <a key={key} href={inline.href} target="_blank" rel="noreferrer noopener">
          {renderInlines(inline.children)}
        </a>
      )
    case 'break':
      return <br key={key} />
    default:
      return assertNever(inline, 'markdown span')
  }
}
