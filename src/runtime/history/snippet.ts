/** How much text a hit shows around its first match (characters). */
const BEFORE = 60
const LENGTH = 220
/** Highlights kept per snippet: enough to see the words, bounded for a text full of them. */
const MAX_HIGHLIGHTS = 40

export interface Snippet {
  readonly text: string
  /** [start, end) of each match, in `text`. */
  readonly highlights: [number, number][]
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * A piece of `text` around the first place a word starts with one of `terms` (the index's
 * words, lowercase), with every such match in it marked. Case is ignored as the index ignores
 * it; without a match (a filter-only search) the text's beginning is shown.
 */
export function snippetOf(text: string, terms: readonly string[]): Snippet {
  const words = [...new Set(terms.filter((term) => term.length > 0))]
    // The longest first: "history" is marked whole where "his" is also a term.
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
  const pattern =
    words.length === 0 ? null : new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})`, 'giu')
  const first = pattern === null ? null : pattern.exec(text)
  const from = first === null ? 0 : Math.max(0, first.index - BEFORE)
  const to = Math.min(text.length, from + LENGTH)
  const prefix = from > 0 ? '…' : ''
  const piece = text.slice(from, to).replace(/\s+/g, ' ')
  // Whitespace folding keeps one character per run, so offsets are found again in the piece.
  const shown = `${prefix}${piece}${to < text.length ? '…' : ''}`
  const highlights: [number, number][] = []
  if (pattern !== null) {
    const inShown = new RegExp(pattern.source, 'giu')
    for (const match of shown.matchAll(inShown)) {
      highlights.push([match.index, match.index + match[0].length])
      if (highlights.length >= MAX_HIGHLIGHTS) break
    }
  }
  return { text: shown, highlights }
}

/** Words a query holds at most: more would only narrow it further. */
const MAX_QUERY_WORDS = 32

/** The words of a query, lowercase, as the index splits text (letters and digits). */
export function queryWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS)
}
