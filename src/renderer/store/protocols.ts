import { USER } from '../../shared/names'
import { addNotice } from './notices'
import type { ProtocolRequest, TeamData } from './state'
import { own } from '../../shared/own'

/**
 * Pure folds and reads of the s10 handshakes (shutdown requests and plan reviews). The runtime
 * registers a shutdown request only when the teammate reads it, and settles a plan only when
 * the teammate reads the answer, so the window also keeps what the person has just asked for.
 */

/** A handshake moved on; the person hears the answer to a request they made themselves. */
export function changeProtocol(state: TeamData, request: ProtocolRequest): TeamData {
  const before = own(state.protocols, request.id)
  const protocols = { ...state.protocols, [request.id]: request }
  const next = { ...state, protocols }
  const answered = request.status !== 'pending' && before?.status !== request.status
  if (!answered || request.from !== USER) return next
  const agreed = request.status === 'approved'
  const what = request.kind === 'shutdown' ? 'shut down' : 'go ahead with the plan'
  return addNotice(next, {
    tone: agreed ? 'info' : 'warning',
    title: agreed ? `${request.to} agreed to ${what}` : `${request.to} declined to ${what}`,
    message: request.reason ?? '',
  })
}

/** The person asked `name` to shut down: pending from now on, whatever the events say later. */
export function shutdownAsked(state: TeamData, requestId: string, name: string): TeamData {
  if (own(state.protocols, requestId) !== undefined) return state
  const request: ProtocolRequest = {
    id: requestId,
    kind: 'shutdown',
    from: USER,
    to: name,
    status: 'pending',
    plan: null,
    reason: null,
  }
  return { ...state, protocols: { ...state.protocols, [requestId]: request } }
}

/** The person answered a plan; it settles when the teammate reads the answer. */
export function planAnswered(state: TeamData, requestId: string, approve: boolean): TeamData {
  if (own(state.protocols, requestId)?.status !== 'pending') return state
  return { ...state, sentReviews: { ...state.sentReviews, [requestId]: { approve } } }
}

/** The person has seen how their answer ended: its card leaves the lead chat. */
export function reviewDismissed(state: TeamData, requestId: string): TeamData {
  if (own(state.sentReviews, requestId) === undefined) return state
  return {
    ...state,
    sentReviews: Object.fromEntries(
      Object.entries(state.sentReviews).filter(([id]) => id !== requestId),
    ),
  }
}

/**
 * The plan cards of the lead chat: every plan waiting for a review, and the plans the person
 * answered whose outcome they have not dismissed yet.
 */
export function leadPlanCards(
  data: Pick<TeamData, 'protocols' | 'sentReviews'>,
): ProtocolRequest[] {
  return Object.values(data.protocols).filter(
    (request) =>
      request.kind === 'plan' &&
      (request.status === 'pending' || own(data.sentReviews, request.id) !== undefined),
  )
}

type Protocols = TeamData['protocols']

/** The newest request matching `matches`, or null. */
function latest(
  protocols: Protocols,
  matches: (request: ProtocolRequest) => boolean,
): ProtocolRequest | null {
  let found: ProtocolRequest | null = null
  for (const request of Object.values(protocols)) if (matches(request)) found = request
  return found
}

/** The shutdown request to `name` the person should see: the newest one, pending or settled. */
export function latestShutdownOf(protocols: Protocols, name: string): ProtocolRequest | null {
  // A closed request was answered in an earlier run, before `name` was spawned again.
  return latest(
    protocols,
    (request) => request.kind === 'shutdown' && request.to === name && request.closed !== true,
  )
}

/** The plan `name` submitted last (a rejected plan is followed by a new one, with a new id). */
export function latestPlanOf(protocols: Protocols, name: string): ProtocolRequest | null {
  return latest(protocols, (request) => request.kind === 'plan' && request.from === name)
}

/** Every plan still waiting for a review, oldest first. */
export function pendingPlans(protocols: Protocols): ProtocolRequest[] {
  return Object.values(protocols).filter(
    (request) => request.kind === 'plan' && request.status === 'pending',
  )
}
