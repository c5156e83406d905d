import { NO_STATUS_FACTS, type MemberStatus, type StatusFacts } from '../../shared/roster'
import type { ActivationEnd } from './agent-types'

/**
 * What an activation's end means: the status it leaves the agent in, the reason shown with it,
 * what that status means as data, and the status record kept in the transcript (none for a plain
 * idle end). The words are for people; whoever acts on the status reads `facts`.
 */
export function describeEnd(end: ActivationEnd): {
  status: MemberStatus
  reason: string
  facts: StatusFacts
  record: string | null
} {
  switch (end.kind) {
    case 'idle':
      return { status: 'idle', reason: 'finished its turn', facts: NO_STATUS_FACTS, record: null }
    case 'round-cap':
      return {
        status: 'idle',
        reason: `round cap (${end.rounds}) reached`,
        facts: { cause: 'round-cap', errorCode: null },
        record: `stopped after the round cap of ${end.rounds} model calls; a new message wakes it`,
      }
    case 'stopped':
      return {
        status: 'idle',
        reason: 'stopped',
        facts: { cause: 'stopped', errorCode: null },
        record: 'stopped by the person',
      }
    case 'paused':
      return {
        status: 'waiting',
        reason: end.reason,
        facts: { cause: end.cause, errorCode: null },
        record: `paused: ${end.reason}`,
      }
    case 'shutdown':
      return { status: 'shutdown', reason: end.reason, facts: NO_STATUS_FACTS, record: end.reason }
    case 'error':
      return {
        status: 'error',
        reason: end.message,
        facts: { cause: null, errorCode: end.code },
        record: end.message,
      }
  }
}
