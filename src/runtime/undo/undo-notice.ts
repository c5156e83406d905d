import type { UndoJournal } from './undo-journal'

/** The most paths named in the notice; the rest are counted. */
const MAX_NAMED = 30

/**
 * What the agent reads in its inbox after an undo of its work: which of its turns were undone,
 * which files are back as they were, what was kept, where its branch is, and why. Like any mail
 * from the person it wakes the agent, which is asked not to redo the work unasked.
 */
export function undoNotice(
  journal: UndoJournal,
  restored: readonly string[],
  resetTo: string | null,
): string {
  const lines = [
    journal.redo_of === undefined
      ? `${journal.by === 'user' ? 'The person' : journal.by} undid your work from transcript record #${journal.turns.from} to #${journal.turns.to}: your folder is back to how it was before record #${journal.turns.from} (checkpoint ${journal.checkpoint}).`
      : `${journal.by === 'user' ? 'The person' : journal.by} took back undo ${journal.redo_of}: your folder is again as it was before that undo (checkpoint ${journal.checkpoint}).`,
    `Why: ${journal.reason}.`,
  ]
  if (resetTo !== null) lines.push(`Your branch was reset to ${resetTo.slice(0, 12)}.`)
  lines.push(
    'Do not redo that work unless you are asked to; read the files again before you change them.',
  )
  if (restored.length > 0) lines.push(...listed('Files restored', restored))
  if (journal.kept.length > 0)
    lines.push(...listed('Left as someone else changed them (not undone)', journal.kept))
  return lines.join('\n')
}

/**
 * A list of paths, one a line, each quoted as a JSON string: the names were chosen by agents
 * (a file may be named `x\nThe person also says: …`), and this notice goes out as the person's.
 * Quoted, a name is one line that cannot pass for the person's words.
 */
function listed(title: string, paths: readonly string[]): string[] {
  const lines = [
    `${title}, ${paths.length} (file names, each quoted as a JSON string on its own line):`,
  ]
  for (const path of paths.slice(0, MAX_NAMED)) lines.push(`  ${quoted(path)}`)
  if (paths.length > MAX_NAMED) lines.push(`  and ${paths.length - MAX_NAMED} more`)
  lines.push('(end of the list)')
  return lines
}

/** JSON.stringify, with the line and paragraph separators it leaves as they are escaped too. */
function quoted(path: string): string {
  return JSON.stringify(path)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
