/**
 * A small Markdown reader for model output: it produces a tree that is rendered as React
 * elements, so no HTML from a model ever reaches the DOM as markup. It covers what agents
 * write — headings, paragraphs, emphasis, inline code, fenced code, lists, quotes, links —
 * and reads an unfinished stream sensibly (an open fence is code up to the end).
 */

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong'; readonly children: readonly Inline[] }
  | { readonly kind: 'emphasis'; readonly children: readonly Inline[] }
  | { readonly kind: 'link'; readonly href: string; readonly children: readonly Inline[] }
  | { readonly kind: 'break' }

export type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly children: readonly Inline[] }
  | { readonly kind: 'paragraph'; readonly children: readonly Inline[] }
  | { readonly kind: 'code'; readonly language: string; readonly text: string }
  | {
      readonly kind: 'list'
      readonly ordered: boolean
      readonly start: number
      readonly items: readonly (readonly Inline[])[]
    }
  | { readonly kind: 'quote'; readonly children: readonly Block[] }
  | { readonly kind: 'rule' }

const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/
const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const bullet = /^\s{0,3}[-*+]\s+(.*)$/
const numbered = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/
const rule = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/
const quote = /^\s{0,3}>\s?(.*)$/

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'))
}

function parseBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ''
    if (line.trim() === '') {
      index++
      continue
    }
    const opened = fence.exec(line)
    if (opened) {
      const marker = opened[1] ?? '```'
      const body: string[] = []
      index++
      while (index < lines.length && !isClosingFence(lines[index] ?? '', marker)) {
        body.push(lines[index] ?? '')
        index++
      }
      index++ // the closing fence (or the end of an unfinished stream)
      blocks.push({ kind: 'code', language: opened[2] ?? '', text: body.join('\n') })
      continue
    }
    const title = heading.exec(line)
    if (title) {
      blocks.push({
        kind: 'heading',
        level: title[1]?.length ?? 1,
        children: parseInline(title[2] ?? ''),
      })
      index++
      continue
    }
    if (rule.test(line)) {
      blocks.push({ kind: 'rule' })
      index++
      continue
    }
    if (quote.test(line)) {
      const body: string[] = []
      while (index < lines.length && quote.test(lines[index] ?? '')) {
        body.push(quote.exec(lines[index] ?? '')?.[1] ?? '')
        index++
      }
      blocks.push({ kind: 'quote', children: parseBlocks(body) })
      continue
    }
    if (bullet.test(line) || numbered.test(line)) {
      const list = readList(lines, index)
      blocks.push(list.block)
      index = list.next
      continue
    }
    const paragraph: string[] = []
    while (index < lines.length && !startsBlock(lines[index] ?? '')) {
      paragraph.push((lines[index] ?? '').trim())
      index++
    }
    blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join('\n')) })
  }
  return blocks
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim()
  return trimmed.startsWith(marker) && trimmed.replace(marker[0] === '`' ? /`/g : /~/g, '') === ''
}

function startsBlock(line: string): boolean {
  return (
    line.trim() === '' ||
    fence.test(line) ||
    heading.test(line) ||
    rule.test(line) ||
    quote.test(line) ||
    bullet.test(line) ||
    numbered.test(line)
  )
}

function readList(lines: readonly string[], start: number): { block: Block; next: number } {
  const ordered = !bullet.test(lines[start] ?? '')
  const pattern = ordered ? numbered : bullet
  const first = ordered ? Number(numbered.exec(lines[start] ?? '')?.[1] ?? 1) : 1
  const items: string[][] = []
  let index = start
  while (index < lines.length) {
    const line = lines[index] ?? ''
    const item = pattern.exec(line)
    if (item) {
      items.push([(ordered ? item[2] : item[1]) ?? ''])
    } else if (line.trim() !== '' && /^\s+/.test(line) && !fence.test(line)) {
      items[items.length - 1]?.push(line.trim()) // a continuation of the item above
    } else if (line.trim() === '' && pattern.test(lines[index + 1] ?? '')) {
      // a loose list: a blank line between items
    } else {
      break
    }
    index++
  }
  return {
    block: {
      kind: 'list',
      ordered,
      start: first,
      items: items.map((item) => parseInline(item.join('\n'))),
    },
    next: index,
  }
}

const safeHref = /^(https?:\/\/|mailto:)/i
const bareUrl = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/i

/** Inline spans: code first (nothing inside it is Markdown), then emphasis and links. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = []
  let text = ''
  const flush = () => {
    if (text.length > 0) out.push({ kind: 'text', text })
    text = ''
  }
  let index = 0
  while (index < source.length) {
    const rest = source.slice(index)
    const char = source[index] ?? ''
    if (char === '\n') {
      flush()
      out.push({ kind: 'break' })
      index++
      continue
    }
    if (char === '\\' && /^[\\`*_[\]()#+\-.!>~]/.test(source[index + 1] ?? '')) {
      text += source[index + 1]
      index += 2
      continue
    }
    if (char === '`') {
      const ticks = /^`+/.exec(rest)?.[0] ?? '`'
      const close = source.indexOf(ticks, index + ticks.length)
      if (close > 0) {
        flush()
        out.push({ kind: 'code', text: source.slice(index + ticks.length, close).trim() })
        index = close + ticks.length
        continue
      }
    }
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest)
    if (strong && (strong[1] === '**' || isWordBoundary(source, index, strong[0].length))) {
      flush()
      out.push({ kind: 'strong', children: parseInline(strong[2] ?? '') })
      index += strong[0].length
      continue
    }
    const emphasis = /^(\*|_)(?=\S)([\s\S]*?[^\s*_])\1(?!\1)/.exec(rest)
    if (emphasis && (emphasis[1] === '*' || isWordBoundary(source, index, emphasis[0].length))) {
      flush()
      out.push({ kind: 'emphasis', children: parseInline(emphasis[2] ?? '') })
      index += emphasis[0].length
      continue
    }
    const link = /^\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(rest)
    if (link) {
      flush()
      const href = link[2] ?? ''
      const children = parseInline(link[1] ?? '')
      if (safeHref.test(href)) out.push({ kind: 'link', href, children })
      else out.push(...children) // javascript:, data:, relative paths: shown as text only
      index += link[0].length
      continue
    }
    const url = bareUrl.exec(rest)
    if (url && (index === 0 || /[\s(]/.test(source[index - 1] ?? ''))) {
      flush()
      out.push({ kind: 'link', href: url[0], children: [{ kind: 'text', text: url[0] }] })
      index += url[0].length
      continue
    }
    text += char
    index++
  }
  flush()
  return out
}

/** `_` marks emphasis only between words' edges, so snake_case names stay as written. */
function isWordBoundary(source: string, start: number, length: number): boolean {
  const before = source[start - 1] ?? ' '
  const after = source[start + length] ?? ' '
  return !/\w/.test(before) && !/\w/.test(after)
}
