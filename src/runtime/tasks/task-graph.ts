import { TeamError } from '../../shared/errors'
import type { Task } from '../../shared/tasks'

/**
 * Checks that `id` may depend on `blockedBy`: no edge to itself, every id on the board, and no
 * cycle through the new edges (a cycle would leave every task on it blocked for good).
 */
export function assertDependencies(
  id: string,
  blockedBy: readonly string[],
  tasks: readonly Task[],
): void {
  const edges = new Map(tasks.map((task) => [task.id, task.blocked_by]))
  for (const blocker of blockedBy) {
    if (blocker === id)
      throw new TeamError('invalid-argument', `Task ${id} cannot be blocked by itself.`)
    if (!edges.has(blocker))
      throw new TeamError(
        'not-found',
        `Task ${blocker} does not exist; list the tasks to see their ids.`,
      )
  }
  edges.set(id, [...blockedBy])
  const path = findCycle(id, edges)
  if (path !== null)
    throw new TeamError(
      'invalid-argument',
      `That would make a cycle (${path.join(' → ')}): tasks that wait on each other are never unblocked.`,
    )
}

/** A path of ids from `start` back to itself along "blocked by" edges, or null. */
function findCycle(start: string, edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const visited = new Set<string>()
  const trail: string[] = []
  const visit = (id: string): string[] | null => {
    trail.push(id)
    for (const next of edges.get(id) ?? []) {
      if (next === start) return [...trail, start]
      if (visited.has(next)) continue
      visited.add(next)
      const found = visit(next)
      if (found !== null) return found
    }
    trail.pop()
    return null
  }
  return visit(start)
}

/** The tasks that wait on `id` and that nothing else blocks once it is done. */
export function unblockedBy(id: string, tasks: readonly Task[]): Task[] {
  const done = new Set(tasks.filter((task) => task.status === 'done').map((task) => task.id))
  done.add(id)
  return tasks.filter(
    (task) =>
      task.status === 'pending' &&
      task.blocked_by.includes(id) &&
      task.blocked_by.every((blocker) => done.has(blocker)),
  )
}
