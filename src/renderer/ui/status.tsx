import { assertNever } from '../../shared/errors'
import { isPause, type MemberStatus, type StatusCause } from '../../shared/roster'

interface StatusLook {
  readonly label: string
  /** Said to screen readers and shown on hover: what the status means for the person. */
  readonly meaning: string
}

export function statusLook(status: MemberStatus): StatusLook {
  switch (status) {
    case 'working':
      return { label: 'Working', meaning: 'running its agent loop right now' }
    case 'idle':
      return { label: 'Idle', meaning: 'done for now; a new message wakes it' }
    case 'waiting':
      return { label: 'Waiting', meaning: 'waiting for a retry, an approval or a budget' }
    case 'stalled':
      return { label: 'Stalled', meaning: 'its model stream went silent' }
    case 'error':
      return { label: 'Error', meaning: 'stopped by a failure' }
    case 'shutdown':
      return { label: 'Shut down', meaning: 'ended; it can be spawned again' }
    case 'waiting-for-you':
      return { label: 'Waiting for you', meaning: 'asks you in the Needs-you queue' }
    default:
      return assertNever(status, 'member status')
  }
}

/** A wait the runtime calls a pause (a budget, a loop, a refused key) says so. */
export function badgeLook(status: MemberStatus, cause: StatusCause | null): StatusLook {
  if (status === 'waiting' && isPause(cause))
    return { label: 'Paused', meaning: 'paused until the cause is fixed' }
  return statusLook(status)
}

/** A status that cannot be misread: a shape, a color and a word, with its reason on hover. */
export function StatusBadge({
  name,
  status,
  cause,
  reason,
}: {
  readonly name: string
  readonly status: MemberStatus
  readonly cause: StatusCause | null
  readonly reason: string | null
}) {
  const look = badgeLook(status, cause)
  const title = reason ? `${look.label}: ${reason}` : `${look.label} — ${look.meaning}`
  return (
    <span
      className={`status status-${status}`}
      data-testid={`status-${name}`}
      data-status={status}
      title={title}
    >
      <span className="status-dot" aria-hidden="true" />
      <span className="status-label">{look.label}</span>
    </span>
  )
}
