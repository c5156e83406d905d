// What of an agent's text an activity pane shows: the tail its box can hold, cut so that its
// Markdown renders as it did whole.
import type { LiveState } from '../store/state'

/** Lines of streaming text a pane shows at most: enough to follow in a large pane. */
export const PANE_LINES = 14
/** And characters: a paragraph without line breaks must not make every frame lay out all of it. */
export const PANE_CHARACTERS = 1200

/** How much of the tail a pane is given: source lines and characters. */
export interface PaneCapacity {
  readonly lines: number
  readonly characters: number
}

export const FULL_CAPACITY: PaneCapacity = { lines: PANE_LINES, characters: PANE_CHARACTERS }

/** A line of pane text in px (12.5 px type, line-height 1.45), and the narrowest character. */
const LINE_PX = 18
const NARROWEST_CHARACTER_PX = 5

/**
 * What a text box of `width` × `height` px can show, with room to spare (twice as many lines
 * and characters as fit, for blank lines, short lines and narrow letters), within the full
 * capacity. Fifty agents make small tiles showing a few lines each: parsing and laying out
 * fourteen lines for them costs several times what they show.
 */
export function capacityFor(width: number, height: number): PaneCapacity {
  if (!(width > 0 && height > 0)) return FULL_CAPACITY
  const visibleLines = Math.ceil(height / LINE_PX)
  const perLine = Math.ceil(width / NARROWEST_CHARACTER_PX)
  return {
    lines: Math.min(PANE_LINES, 2 * visibleLines + 2),
    characters: Math.min(PANE_CHARACTERS, 2 * visibleLines * perLine),
  }
}

/** The tail of what the agent streams (or last said), as Markdown that still reads right. */
export function paneText(
  live: LiveState | undefined,
  capacity: PaneCapacity = FULL_CAPACITY,
): string {
  if (live === undefined) return ''
  const text = (live.text.length > 0 ? live.text : live.lastText).trimEnd()
  return markdownTail(text, capacity.lines, capacity.characters)
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

/**
 * The last lines of Markdown text, at most `maxLines` and about `maxCharacters`, cut so that
 * they render as they did whole: a cut inside a fenced block re-opens the fence, and a cut
 * inside a table keeps the table's header and delimiter rows (else pipes and fences show raw).
 */
export function markdownTail(text: string, maxLines: number, maxCharacters: number): string {
  const lines = text.split('\n')
  let start = Math.max(0, lines.length - maxLines)
  let kept = lines.slice(start).reduce((sum, line) => sum + line.length + 1, 0)
  while (kept > maxCharacters && start < lines.length - 1) {
    kept -= (lines[start]?.length ?? 0) + 1
    start++
  }
  if (start === 0) return tailCharacters(text, maxCharacters)
  const tail = lines.slice(start)
  const last = tail.length - 1
  tail[last] = tailCharacters(tail[last] ?? '', maxCharacters)
  return [...reopened(lines, start), ...tail].join('\n')
}

function tailCharacters(text: string, maxCharacters: number): string {
  return text.length > maxCharacters ? text.slice(text.length - maxCharacters) : text
}

/** The lines that re-open what is open at line `start`: a code fence, or a table's head. */
function reopened(lines: readonly string[], start: number): string[] {
  let fence: { marker: string; line: string } | null = null
  for (let index = 0; index < start; index++) {
    const line = lines[index] ?? ''
    const match = FENCE.exec(line)
    if (match === null) continue
    const marker = match[1] ?? ''
    if (fence === null) fence = { marker, line }
    else if (
      marker[0] === fence.marker[0] &&
      marker.length >= fence.marker.length &&
      (match[2] ?? '').trim() === ''
    )
      fence = null
  }
  if (fence !== null) return [fence.line]
  // A table: its rows run up to the cut without a blank line, from a header and a delimiter.
  if (!(lines[start] ?? '').includes('|')) return []
  let first = start
  while (first > 0 && (lines[first - 1] ?? '').includes('|')) first--
  const delimiter = lines[first + 1]
  if (first < start && delimiter !== undefined && TABLE_DELIMITER.test(delimiter)) {
    if (first + 1 >= start) return [lines[first] ?? '']
    return [lines[first] ?? '', delimiter]
  }
  return []
}
