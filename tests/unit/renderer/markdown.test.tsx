// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest'
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Markdown } from '../../../src/renderer/markdown/Markdown'
import { parseMarkdown, parseInline } from '../../../src/renderer/markdown/parse'

afterEach(cleanup)

describe('the Markdown renderer', () => {
  it('renders headings, emphasis, inline code, lists and fenced code', () => {
    const { container } = render(
      <Markdown
        text={
          '# Title\n\nSome **bold**, *italic* and `code`.\n\n- one\n- two\n\n1. first\n2. second\n\n```js\nconst x = 1 < 2\n```'
        }
      />,
    )
    expect(container.querySelector('h3')).toHaveTextContent('Title')
    expect(container.querySelector('strong')).toHaveTextContent('bold')
    expect(container.querySelector('em')).toHaveTextContent('italic')
    expect(container.querySelector('p code')).toHaveTextContent('code')
    expect(container.querySelectorAll('ul li')).toHaveLength(2)
    expect(container.querySelectorAll('ol li')).toHaveLength(2)
    expect(container.querySelector('pre code')).toHaveTextContent('const x = 1 < 2')
    expect(container.querySelector('.code-language')).toHaveTextContent('js')
  })

  it('never turns model text into markup', () => {
    const { container } = render(
      <Markdown text={'<img src=x onerror=alert(1)> <script>alert(2)</script>'} />,
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>')
  })

  it('links only to http(s) and mailto, with rel=noreferrer', () => {
    const { container } = render(
      <Markdown
        text={'[docs](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,x)'}
      />,
    )
    const links = container.querySelectorAll('a')
    expect(links).toHaveLength(1)
    expect(links[0]).toHaveAttribute('href', 'https://example.com/a')
    expect(links[0]?.getAttribute('rel')).toContain('noreferrer')
    expect(container).toHaveTextContent('bad')
  })

  it('reads an unfinished stream: an open fence is code to the end', () => {
    expect(parseMarkdown('Here:\n```ts\nconst a = 1')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'Here:' }] },
      { kind: 'code', language: 'ts', text: 'const a = 1' },
    ])
  })

  it('leaves snake_case names and lone markers alone', () => {
    expect(parseInline('read_file and send_message')).toEqual([
      { kind: 'text', text: 'read_file and send_message' },
    ])
    expect(parseInline('2 * 3 = 6')).toEqual([{ kind: 'text', text: '2 * 3 = 6' }])
  })

  it('links bare URLs', () => {
    expect(parseInline('see https://nodejs.org/api.')).toEqual([
      { kind: 'text', text: 'see ' },
      {
        kind: 'link',
        href: 'https://nodejs.org/api',
        children: [{ kind: 'text', text: 'https://nodejs.org/api' }],
      },
      { kind: 'text', text: '.' },
    ])
  })
})
