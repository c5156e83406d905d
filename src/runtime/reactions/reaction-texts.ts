import { formatDuration } from '../../shared/duration'
import { teammateBranch } from '../../shared/worktree'

/** The words reactions put in an agent's inbox: what happened, and what to do about it. */

/** How much of a failed check's output goes into the teammate's inbox. */
export const INBOX_TAIL_CHARACTERS = 4000

export function shortCommit(commit: string | null): string {
  return commit === null ? 'its worktree' : commit.slice(0, 9)
}

export function checkFailedText(
  command: string,
  commit: string | null,
  summary: string,
  tail: string,
): string {
  const shown = tail.length > INBOX_TAIL_CHARACTERS ? tail.slice(-INBOX_TAIL_CHARACTERS) : tail
  return (
    `The check \`${command}\` ${summary} on your commit ${shortCommit(commit)}. ` +
    'Fix it in your worktree and commit: the check runs again after each commit.\n\n' +
    `The end of its output:\n\`\`\`\n${shown === '' ? '(no output)' : shown}\n\`\`\``
  )
}

export function checkFixedText(command: string, commit: string | null): string {
  return `The check \`${command}\` passes again on your commit ${shortCommit(commit)}: fixed.`
}

export function silentNudgeText(afterSeconds: number): string {
  return (
    `You have been working for ${formatDuration(afterSeconds)} without a word. ` +
    'If you are stuck, say what blocks you to the lead (send_message); otherwise go on, and ' +
    'report your progress.'
  )
}

export function idleTaskNudgeText(task: { id: string; subject: string }): string {
  return (
    `You are idle, but task #${task.id} (${task.subject}) is still in progress in your name. ` +
    'Go on with it; or, if it is done, complete it (update_task); or, if you cannot do it, ' +
    'say why to the lead.'
  )
}

export function conflictText(name: string, into: string, files: readonly string[]): string {
  const list = files.length > 0 ? files.join(', ') : '(the files git names)'
  return (
    `A merge of your branch ${teammateBranch(name)} into ${into} conflicts in: ${list}. ` +
    `In your worktree, run \`git merge ${into}\`, resolve the conflicts in those files, ` +
    'commit, and tell the lead when it is done.'
  )
}
