/**
 * `@path` imports in a CLAUDE.md, as Claude Code reads them: an `@` at the start of a line or
 * after a space, then a path (a space inside it escaped as `\ `). Not inside fenced code blocks
 * or inline code spans, where `@` is usually code (decorators, npm scopes).
 */

const IMPORT = /(?:^|\s)@((?:[^\s\\`]|\\ )+)/g
const FENCE = /^\s*(```|~~~)/
const CODE_SPAN = /`[^`\n]*`/g
/** Punctuation that ends a sentence, not a path: "see @docs/style.md." */
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/

/** The import paths of `text`, in order of appearance, each once. */
export function importPaths(text: string): string[] {
  const paths: string[] = []
  let fence: string | null = null
  for (const line of text.split(/\r?\n/)) {
    const opening = FENCE.exec(line)
    if (opening) {
      const marker = opening[1] ?? ''
      if (fence === null) fence = marker
      else if (fence === marker) fence = null
      continue
    }
    if (fence !== null) continue
    const outsideCode = line.replace(CODE_SPAN, ' ')
    for (const match of outsideCode.matchAll(IMPORT)) {
      const path = (match[1] ?? '').replace(/\\ /g, ' ').replace(TRAILING_PUNCTUATION, '')
      if (path.length > 0 && !paths.includes(path)) paths.push(path)
    }
  }
  return paths
}
