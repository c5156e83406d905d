import { openBlockers, taskStatuses, type Task } from '../../shared/tasks'

/**
 * The tasks an idle teammate with auto-claim may take, best first: pending, unblocked, assigned to
 * it or to nobody; those assigned to it, then those whose words fit its role, then the rest, each
 * by id. The role match is deliberately simple: a role word's stem ("tester" → "test") starting
 * a word of the subject or description.
 */
export function autoClaimCandidates(name: string, role: string, tasks: readonly Task[]): Task[] {
  const statuses = taskStatuses(tasks)
  const open = tasks.filter(
    (task) =>
      task.status === 'pending' &&
      (task.owner === null || task.owner === name) &&
      openBlockers(task, statuses).length === 0,
  )
  const stems = words(role)
    .filter((word) => word.length >= 3)
    .map((word) => word.slice(0, Math.max(3, Math.min(word.length, Math.max(4, word.length - 2)))))
  const rank = (task: Task): number => {
    if (task.owner === name) return 0
    const text = words(`${task.subject} ${task.description}`)
    return stems.some((stem) => text.some((word) => word.startsWith(stem))) ? 1 : 2
  }
  return open
    .map((task) => ({ task, rank: rank(task) }))
    .sort((a, b) => a.rank - b.rank || Number(a.task.id) - Number(b.task.id))
    .map((entry) => entry.task)
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
}

/** The turn an auto-claimed task starts with. */
export function autoClaimTurn(task: Task): string {
  return [
    `You claimed task #${task.id} from the board (auto-claim): ${task.subject}`,
    ...(task.description === '' ? [] : ['', task.description]),
    '',
    'Do it, then call complete_task with a summary of the result.',
  ].join('\n')
}
