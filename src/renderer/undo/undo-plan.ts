import type { Params } from '../../shared/contract'
import type { Checkpoint, UndoFile, UndoPlan, UndoTarget } from '../../shared/undo'

/** What an undo does to one file, in the person's words. */
export const CHANGE_WORDS: Readonly<Record<UndoFile['change'], string>> = {
  A: 'brought back',
  M: 'restored',
  D: 'removed',
}

/** The plan as the dialog shows it, grouped by what the person has to decide. */
export interface PlanView {
  /** Files only this agent changed since the checkpoint: the undo restores them. */
  readonly restores: readonly UndoFile[]
  /** Files someone else changed since: kept as they are unless the person ticks them. */
  readonly conflicts: readonly UndoFile[]
  /** What happens to the agent's commits in the range, in a sentence. */
  readonly commits: string | null
  /** Why the undo cannot be done at all (its commits cannot be reset), and the way out. */
  readonly refusal: string | null
  /** The records marked "Undone", in words. */
  readonly turns: string
}

export function planView(plan: UndoPlan): PlanView {
  const restores = plan.files.filter((file) => file.changedBy === null)
  const conflicts = plan.files.filter((file) => file.changedBy !== null)
  return {
    restores,
    conflicts,
    commits: describeCommits(plan),
    refusal:
      plan.commits.action === 'refused'
        ? (plan.commits.reason ?? 'Its commits cannot be taken back by a reset.')
        : null,
    turns:
      plan.turns.from === plan.turns.to
        ? `Transcript entry #${plan.turns.from} will be marked Undone; it stays in the transcript.`
        : `Transcript entries #${plan.turns.from}–#${plan.turns.to} will be marked Undone; they stay in the transcript.`,
  }
}

function describeCommits(plan: UndoPlan): string | null {
  const { count, action } = plan.commits
  const commits = count === 1 ? '1 commit' : `${count} commits`
  switch (action) {
    case 'none':
      return null
    case 'reset':
      return plan.checkpoint.head === null
        ? `Its branch goes back to where it was, dropping ${commits} ${plan.name} made since.`
        : `Its branch goes back to ${plan.checkpoint.head.slice(0, 10)}, dropping ${commits} ${plan.name} made since.`
    case 'refused':
      return `${plan.name} made ${commits} since, which its branch cannot simply drop.`
  }
}

/** Whether Undo can be pressed, and why not. */
export function applyBlock(plan: UndoPlan): string | null {
  if (plan.commits.action === 'refused')
    return 'Undo is off: the commits cannot be reset (see why above).'
  return null
}

/**
 * The undo as planned: the plan's id, the files someone else changed that the person chose to
 * overwrite (only files the plan flagged; anything else is not the person's choice here), and
 * why, when the person said (the agent's inbox notice says it).
 */
export function applyParams(
  plan: UndoPlan,
  overwrite: ReadonlySet<string>,
  reason = '',
): Params<'applyUndo'> {
  const chosen = plan.files
    .filter((file) => file.changedBy !== null && overwrite.has(file.path))
    .map((file) => file.path)
  const why = reason.trim()
  return {
    name: plan.name,
    target: plan.target,
    planId: plan.planId,
    ...(chosen.length === 0 ? {} : { overwrite: chosen }),
    ...(why === '' ? {} : { reason: why }),
  }
}

/** The dialog's title: what of `name`'s work is undone. */
export function undoTitle(name: string, target: UndoTarget): string {
  switch (target.by) {
    case 'turns':
      return target.turns === 1
        ? `Undo ${name}'s last turn`
        : `Undo ${name}'s last ${target.turns} turns`
    case 'task':
      return `Undo ${name}'s changes for task #${target.task}`
    case 'checkpoint':
      return `Undo ${name}'s turn and what followed`
  }
}

/**
 * A refusal's words with its commands apart: the runtime writes a command between backticks
 * (`git revert …`), shown as code.
 */
export function textAndCode(text: string): { readonly text: string; readonly code: boolean }[] {
  return text
    .split('`')
    .map((part, index) => ({ text: part, code: index % 2 === 1 }))
    .filter((part) => part.text !== '')
}

/**
 * Whether a checkpoint was taken before a turn while the agent had `task` in progress: what an
 * undo of the task goes back to (the first of them).
 */
export function hasTaskCheckpoint(checkpoints: readonly Checkpoint[], task: string): boolean {
  return checkpoints.some(
    (checkpoint) => checkpoint.task === task && (checkpoint.kind ?? 'turn') === 'turn',
  )
}
