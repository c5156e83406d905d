import { PAUSED_REASON_PREFIX } from '../../shared/desktop'
import type { MemberStatus, WaitCause } from '../../shared/roster'
import type { ActivationEnd } from './agent-types'

/**
 * What an activation's end means: the status it leaves the agent in, the reason shown with it,
 * and the status record kept in the transcript (none for a plain idle end).
 */
export function describeEnd(end: ActivationEnd): {
  status: MemberStatus
  reason: string
  record: string | null
  cause?: WaitCause
} {
  switch (end.kind) {
    case 'idle':
      return { status: 'idle', reason: 'finished its turn', record: null }
    case 'round-cap':
      return {
        status: 'idle',
        reason: `round cap (${end.rounds}) reached`,
        record: `stopped after the round cap of ${end.rounds} model calls; a new message wakes it`,
      }
    case 'stopped':
      return { status: 'idle', reason: 'stopped', record: 'stopped by the person' }
    case 'paused':
      return {
        status: 'waiting',
        cause: end.cause,
        reason: `${PAUSED_REASON_PREFIX}${end.reason}`,
        record: `${PAUSED_REASON_PREFIX}${end.reason}`,
      }
    case 'shutdown':
      return { status: 'shutdown', reason: end.reason, record: end.reason }
    case 'error':
      return { status: 'error', reason: end.message, record: end.message }
  }
}
