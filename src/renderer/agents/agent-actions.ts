import type { MemberStatus } from '../../shared/roster'
import { isBudgetPause } from '../store/budgets'
import type { AgentState } from '../store/state'

/**
 * Whether Resume applies: the agent paused, failed or went silent, and can go on. A budget
 * pause lifts only when the budget is raised, so it offers "Set budget…" instead.
 */
export function canResume(agent: AgentState): boolean {
  const status = agent.status
  if (isBudgetPause(agent)) return false
  return status === 'waiting' || status === 'stalled' || status === 'error'
}

/** Whether Stop applies: the agent works, or sits in a wait or a stall that Stop ends. */
export function canStop(status: MemberStatus): boolean {
  return (
    status === 'working' ||
    status === 'stalled' ||
    status === 'waiting' ||
    status === 'waiting-for-you'
  )
}

/** A stalled stream is retried at once; anything else goes on where it stopped. */
export function resumeLabel(status: MemberStatus): string {
  return status === 'stalled' ? 'Retry' : 'Resume'
}

export function resumeTitle(name: string, status: MemberStatus): string {
  switch (status) {
    case 'stalled':
      return `Retry ${name}'s silent model call now`
    case 'waiting':
      return `Let ${name} go on now (cuts a retry wait short)`
    default:
      return `Let ${name} go on from where it stopped`
  }
}
