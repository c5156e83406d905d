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
  if (restored.length > 0) lines.push(`Files restored: ${named(restored)}.`)
  if (journal.kept.length > 0)
    lines.push(`Left as someone else changed them (not undone): ${named(journal.kept)}.`)
  if (resetTo !== null) lines.push(`Your branch was reset to ${resetTo.slice(0, 12)}.`)
  lines.push(
    'Do not redo that work unless you are asked to; read the files again before you change them.',
  )
  return lines.join('\n')
}

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_NAMED).join(', ')
  return paths.length > MAX_NAMED ? `${shown} and ${paths.length - MAX_NAMED} more` : shown
}
