import { newestFirstByAgent, type NeedsYouEntry } from '../../shared/needs-you'

type Queue = Readonly<Record<string, NeedsYouEntry>>

/** What waits on the person: newest first, grouped by agent. */
export function pendingEntries(queue: Queue): NeedsYouEntry[] {
  return newestFirstByAgent(Object.values(queue).filter((entry) => entry.status === 'pending'))
}

/** How many entries of `agent` wait on the person. */
export function pendingCountOf(queue: Queue, agent: string): number {
  let count = 0
  for (const entry of Object.values(queue))
    if (entry.agent === agent && entry.status === 'pending') count += 1
  return count
}

export function pendingCount(queue: Queue): number {
  let count = 0
  for (const entry of Object.values(queue)) if (entry.status === 'pending') count += 1
  return count
}

/** The window's title with the count in front, as mail clients do: "(3) Agent Teams". */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? `(${count}) ${base}` : base
}

export function kindLabel(kind: NeedsYouEntry['kind']): string {
  switch (kind) {
    case 'tool':
      return 'Approval'
    case 'question':
      return 'Question'
    case 'plan':
      return 'Plan'
    case 'pause':
      return 'Paused'
    case 'error':
      return 'Error'
    case 'stall':
      return 'Stalled'
    case 'schedule':
      return 'Schedule cap'
  }
}
