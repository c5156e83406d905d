import type { TeamEvent } from '../../shared/events'
import type { NeedsYouEntry } from '../../shared/needs-you'
import { LEAD } from '../../shared/names'
import { isPause, type MemberStatus } from '../../shared/roster'
import type { Clock, IdSource } from '../system/clock'
import type { ProtocolRequest } from '../protocols/store'
import type { Team } from '../team/team'
import { NeedsYou, type NeedsYouActions } from './queue'
import { NeedsYouStore } from './store'

/** The team's queue, read from `.team/needs-you.json`; a waiting agent shows `waiting-for-you`. */
export function teamQueue(
  team: Team,
  clock: Clock,
  ids: IdSource,
  actions: NeedsYouActions,
  rulesApply: () => boolean = () => true,
): NeedsYou {
  return new NeedsYou({
    store: NeedsYouStore.open(team.paths),
    clock,
    ids,
    publish: (event) => team.publish(event),
    waiting: (agent, waiting, summary) =>
      team.setStatus(
        agent,
        waiting ? 'waiting-for-you' : 'working',
        waiting ? `waiting for you: ${summary}` : 'answered',
      ),
    actions,
    rulesApply,
  })
}

type EventOf<T extends TeamEvent['type']> = Extract<TeamEvent, { type: T }>

/**
 * Keeps the queue's mirrored entries true to the states they stand for: an agent that paused,
 * failed or stalled needs the person until it goes on; a plan needs a review until it has one.
 */
export function mirrorEvent(queue: NeedsYou, event: TeamEvent): void {
  if (event.type === 'agent-status-changed') mirrorStatus(queue, event)
  else if (event.type === 'protocol-changed' && event.request.kind === 'plan')
    mirrorPlan(queue, event.request)
}

function mirrorStatus(queue: NeedsYou, event: EventOf<'agent-status-changed'>): void {
  const { name, status, reason, cause } = event
  if (status === 'error') queue.raise(name, 'error', `${name} stopped on an error`, reason)
  else if (status === 'stalled') queue.raise(name, 'stall', `${name} stalled`, reason)
  else if (status === 'waiting' && isPause(cause))
    queue.raise(name, 'pause', `${name} is paused`, reason)
  else if (status !== 'waiting') queue.clear(name, ['pause', 'error', 'stall'])
}

function mirrorPlan(
  queue: NeedsYou,
  request: { id: string; from: string; status: string; plan: string | null },
): void {
  if (request.status === 'pending')
    queue.raise(request.from, 'plan', `plan of ${request.from}`, request.plan ?? '', request.id)
  else queue.clear(request.from, ['plan'], request.id)
}

/**
 * After a start: mirrored entries whose state is gone are resolved, and pending plans that
 * have no entry yet (written before the queue existed) get one.
 */
export function reconcileMirrors(
  queue: NeedsYou,
  team: Team,
  requests: readonly ProtocolRequest[],
): void {
  const statusOf = (agent: string): MemberStatus | null =>
    agent === LEAD ? team.leadStatus : (team.roster.find(agent)?.status ?? null)
  const pendingPlans = new Set(
    requests.filter((request) => request.kind === 'plan' && request.status === 'pending'),
  )
  const holds = (entry: NeedsYouEntry): boolean => {
    const status = statusOf(entry.agent)
    switch (entry.kind) {
      case 'plan':
        return [...pendingPlans].some((request) => request.id === entry.request_id)
      case 'error':
        return status === 'error'
      case 'stall':
        return status === 'stalled'
      case 'pause':
        return status === 'waiting'
      default:
        return true
    }
  }
  queue.reconcile(holds)
  for (const request of pendingPlans) mirrorPlan(queue, request)
}
