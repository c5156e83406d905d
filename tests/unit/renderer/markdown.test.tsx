// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Markdown as LoadedMarkdown } from '../../../src/renderer/ui/markdown/Markdown'
import { MarkdownView as Markdown } from '../../../src/renderer/ui/markdown/MarkdownView'
import { registeredLanguages } from '../../../src/renderer/ui/markdown/highlight'
import { LANGUAGE_NAMES, languageForPath } from '../../../src/renderer/ui/markdown/languages'
import { recordingClipboard } from './clipboard'

afterEach(cleanup)
const clipboard = recordingClipboard()

describe('the Markdown renderer', () => {
  it('renders headings, emphasis, inline code and lists', () => {
    const { container } = render(
      <Markdown
        text={
          '# Title\n\nSome **bold**, *italic* and `code`.\n\n- one\n- two\n\n1. first\n2. second'
        }
      />,
    )
    expect(container.querySelector('h3')).toHaveTextContent('Title')
    expect(container.querySelector('strong')).toHaveTextContent('bold')
    expect(container.querySelector('em')).toHaveTextContent('italic')
    expect(container.querySelector('p code')).toHaveTextContent('code')
    expect(container.querySelectorAll('ul li')).toHaveLength(2)
    expect(container.querySelectorAll('ol li')).toHaveLength(2)
  })

  it('renders GitHub tables with their header, cells and alignment', () => {
    const { container } = render(
      <Markdown text={'| file | lines |\n| :--- | ---: |\n| a.ts | 12 |\n| b.ts | 340 |'} />,
    )
    const table = container.querySelector('table')
    expect(table).not.toBeNull()
    expect(
      within(table!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['file', 'lines'])
    expect(
      within(table!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['a.ts', '12', 'b.ts', '340'])
    // text-align through the CSSOM (React's style property), which the CSP allows.
    expect(within(table!).getAllByRole('cell')[1]).toHaveStyle({ textAlign: 'right' })
    expect(container).not.toHaveTextContent('|')
  })

  it('renders task lists as checkboxes the reader cannot tick', () => {
    render(<Markdown text={'- [x] write the parser\n- [ ] test it'} />)
    const boxes = screen.getAllByRole('checkbox')
    expect(boxes).toHaveLength(2)
    expect(boxes[0]).toBeChecked()
    expect(boxes[1]).not.toBeChecked()
    for (const box of boxes) expect(box).toBeDisabled()
    expect(screen.getByText('test it')).toBeInTheDocument()
  })

  it('renders strikethrough and links bare addresses', () => {
    const { container } = render(<Markdown text={'~~old~~ see https://nodejs.org/api.'} />)
    expect(container.querySelector('del')).toHaveTextContent('old')
    const link = screen.getByRole('link')
    expect(link).toHaveAttribute('href', 'https://nodejs.org/api')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link.getAttribute('rel')).toContain('noreferrer')
  })

  it('highlights fenced code in its language, and names the language', async () => {
    const { container } = render(
      <Markdown text={'Here:\n\n```ts\nconst total: number = 1 // one\n```'} />,
    )
    const code = container.querySelector('pre code')
    expect(code).toHaveClass('language-ts')
    expect(code).toHaveTextContent('const total: number = 1 // one')
    // highlight.js is a chunk of its own: the code shows plain until it has loaded.
    await waitFor(() => expect(code?.querySelector('.hljs-keyword')).toHaveTextContent('const'))
    expect(code?.querySelector('.hljs-comment')).toHaveTextContent('// one')
    expect(container.querySelector('.code-language')).toHaveTextContent('ts')
  })

  it('shows code in an unknown language plain, and an unfinished stream’s fence as code', () => {
    const { container } = render(<Markdown text={'```brainfuck\n+++.\n```\n\n```py\nx = 1'} />)
    const [unknown, open] = container.querySelectorAll('pre code')
    expect(unknown).toHaveTextContent('+++.')
    expect(unknown?.querySelector('span')).toBeNull()
    expect(open).toHaveClass('language-py')
    expect(open).toHaveTextContent('x = 1')
  })

  it('copies a code block’s text with its Copy button', async () => {
    render(<Markdown text={'```bash\nnpm test\n```'} />)
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }))
    expect(await screen.findByText('Copied')).toBeInTheDocument()
    expect(clipboard.written).toEqual(['npm test'])
  })

  it('says so when the clipboard refuses the text', async () => {
    clipboard.refuse = true
    render(<Markdown text={'```\nsecret\n```'} />)
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }))
    expect(await screen.findByText('Not copied')).toBeInTheDocument()
    expect(clipboard.written).toEqual([])
  })

  it('never turns model text into markup', () => {
    const { container } = render(
      <Markdown text={'<img src=x onerror=alert(1)> <script>alert(2)</script>'} />,
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>')
  })

  it('fetches no image: an image is a link to its address', () => {
    const { container } = render(<Markdown text={'![the chart](https://example.com/c.png)'} />)
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByRole('link', { name: 'the chart' })).toHaveAttribute(
      'href',
      'https://example.com/c.png',
    )
  })

  it('links only to http(s) and mailto', () => {
    const { container } = render(
      <Markdown
        text={
          '[docs](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](notes.md) [mail](mailto:a@b.c)'
        }
      />,
    )
    const links = [...container.querySelectorAll('a')].map((link) => link.getAttribute('href'))
    expect(links).toEqual(['https://example.com/a', 'mailto:a@b.c'])
    expect(container).toHaveTextContent('bad')
    expect(container).toHaveTextContent('rel')
  })
})

describe('Markdown, loaded after the first paint', () => {
  it('shows the text as written, then formatted once its chunk is there', async () => {
    const { container } = render(<LoadedMarkdown text={'A **bold** word'} />)
    expect(container).toHaveTextContent('bold')
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('bold'))
    expect(container).not.toHaveTextContent('**')
  })
})

describe('a file’s language', () => {
  it('comes from its extension or its name', () => {
    expect(languageForPath('src/app.tsx')).toBe('tsx')
    expect(languageForPath('scripts/build.PY')).toBe('py')
    expect(languageForPath('Dockerfile')).toBe('dockerfile')
    expect(languageForPath('notes.unknownext')).toBeNull()
    expect(languageForPath('README')).toBeNull()
  })

  it('is known without highlight.js by every name highlight.js registers', () => {
    const { names, has } = registeredLanguages()
    for (const name of names) expect(LANGUAGE_NAMES).toContain(name)
    for (const name of LANGUAGE_NAMES) expect(has(name), name).toBe(true)
  })
})
