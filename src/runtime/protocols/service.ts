import type { ProtocolRequestView } from '../../shared/contract'
import type { TeamEvent } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import { LEAD, USER } from '../../shared/names'
import { TeamError } from '../../shared/errors'
import type { IdSource } from '../system/clock'
import type { Team } from '../team/team'
import type { ProtocolOperations } from '../tools/protocol-tools'
import { judgeProtocolMessage } from './judge'
import type { ProtocolRequest, ProtocolStore } from './store'

/** What the plan gate holds (`mayChangeThings`), as the teammate reads it. */
const GATED_TOOLS = 'bash, write_file, edit_file and MCP tools'

export interface ProtocolDependencies {
  readonly team: Team
  readonly store: ProtocolStore
  readonly ids: IdSource
  /** The running agent of a teammate who approved its shutdown: it ends after this step. */
  readonly shutDownAfterStep: (name: string, reason: string) => void
}

/**
 * The s10 protocols on top of the mailbox: shutdown with a request id and an answer, and the
 * plan gate. Requests live in the ProtocolStore; messages carry `request_id` as an extra field,
 * so the wire stays s10's. A response is judged when it is delivered.
 */
export class Protocols implements ProtocolOperations {
  constructor(private readonly dependencies: ProtocolDependencies) {}

  private get team(): Team {
    return this.dependencies.team
  }

  /** The verdict on a message reaching `recipient`: null to take it, or why it is refused. */
  judge(recipient: string, message: MailMessage): string | null {
    return judgeProtocolMessage(this.dependencies.store, recipient, message)
  }

  requestShutdown(request: { by: string; teammate: string }): string {
    const { id } = this.askShutdown(request)
    return `Asked ${request.teammate} to shut down (request_id ${id}); its shutdown_response will say whether it agrees.`
  }

  /**
   * Records the shutdown request, then sends the shutdown_request as its notice. `id` is the
   * person's own choice from the CLI (so that it can print it); otherwise a new one.
   */
  askShutdown({ by, teammate, id }: { by: string; teammate: string; id?: string }): {
    id: string
  } {
    const member = this.team.roster.find(teammate)
    if (!member) throw new TeamError('unknown-agent', `"${teammate}" is not on the roster.`)
    if (member.status === 'shutdown')
      throw new TeamError('member-shut-down', `"${teammate}" is already shut down.`)
    const requestId = id ?? this.dependencies.ids.next('shutdown')
    if (this.dependencies.store.get(requestId))
      throw new TeamError('already-exists', `A request with id ${requestId} exists already.`)
    const notice = this.team.send({
      from: by,
      to: teammate,
      type: 'shutdown_request',
      content: `Please shut down (request ${requestId}). Answer with shutdown_response.`,
      extra: { request_id: requestId },
    })
    // Recorded in the same tick as the send: the teammate judges the notice only later.
    this.publish(
      this.dependencies.store.create({
        id: requestId,
        kind: 'shutdown',
        from: by,
        to: teammate,
        notice: notice.id,
      }),
    )
    return { id: requestId }
  }

  respondToShutdown({
    agent,
    requestId,
    approve,
    reason,
  }: {
    agent: string
    requestId: string
    approve: boolean
    reason: string
  }): string {
    const request = this.pending(requestId, 'shutdown')
    if (request.to !== agent)
      throw new TeamError(
        'not-permitted',
        `Shutdown request ${requestId} was made to "${request.to}", not to you.`,
      )
    // The teammate's own tool call, handled here, is what settles the request; the message to
    // the lead is only its notice.
    if (request.from === USER) {
      // The person has no inbox: the answer shows in the UI.
      this.publish(this.dependencies.store.settle(requestId, approve, reason || null))
    } else {
      const notice = this.team.send({
        from: agent,
        to: request.from,
        type: 'shutdown_response',
        content: reason || (approve ? 'Shutting down.' : 'Not shutting down yet.'),
        extra: { request_id: requestId, approve, reason },
      })
      this.publish(this.dependencies.store.settle(requestId, approve, reason, notice.id))
    }
    if (!approve) return `Declined shutdown request ${requestId}.`
    this.dependencies.shutDownAfterStep(
      agent,
      reason ? `shut down on request ${requestId}: ${reason}` : `shut down on request ${requestId}`,
    )
    return `Approved shutdown request ${requestId}; you stop after this step.`
  }

  submitPlan({ agent, plan }: { agent: string; plan: string }): string {
    const id = this.dependencies.ids.next('plan')
    const notice = this.team.send({
      from: agent,
      to: LEAD,
      type: 'plan_approval_response',
      content: plan,
      extra: { request_id: id, plan },
    })
    this.publish(
      this.dependencies.store.create({
        id,
        kind: 'plan',
        from: agent,
        to: LEAD,
        plan,
        notice: notice.id,
      }),
    )
    return `Plan submitted (request_id ${id}). Wait for the approval before using bash, write_file or edit_file.`
  }

  reviewPlan({
    by,
    requestId,
    approve,
    feedback,
  }: {
    by: string
    requestId: string
    approve: boolean
    feedback: string
  }): string {
    const request = this.pending(requestId, 'plan')
    if (by !== LEAD && by !== USER)
      throw new TeamError('not-permitted', 'Only the lead or the person may review a plan.')
    const content =
      feedback || (approve ? 'Plan approved; go ahead.' : 'Plan rejected; submit a new one.')
    // The review takes effect here, in the runtime's record; the message is only its notice.
    const notice = this.team.send({
      from: by,
      to: request.from,
      type: 'plan_approval_response',
      content,
      extra: { request_id: requestId, approve, feedback },
    })
    const settled = this.dependencies.store.settle(requestId, approve, feedback, notice.id)
    this.publish(settled)
    if (approve) this.markPlanApproved(request.from, requestId)
    return `${approve ? 'Approved' : 'Rejected'} plan ${requestId} of ${request.from}.`
  }

  /** Why a plan-first teammate may not change anything yet, or null. */
  planGate(name: string): string | null {
    const member = this.team.roster.find(name)
    if (!member || member.plan_first !== true) return null
    // config.json can be edited by anyone: its `plan_approved` counts only when the runtime's
    // own record holds that plan of this teammate as approved.
    const approved =
      typeof member.plan_approved === 'string'
        ? this.dependencies.store.get(member.plan_approved)
        : undefined
    if (approved?.kind === 'plan' && approved.from === name && approved.status === 'approved')
      return null
    const pending = this.dependencies.store
      .all()
      .some(
        (request) =>
          request.kind === 'plan' && request.from === name && request.status === 'pending',
      )
    return pending
      ? `your plan is waiting for approval; ${GATED_TOOLS} are refused until it is approved.`
      : `you were spawned plan-first: submit your plan with submit_plan and wait for its approval before using ${GATED_TOOLS}.`
  }

  requests(): ProtocolRequest[] {
    return this.dependencies.store.all()
  }

  /** A teammate spawned again: the shutdown answers of its earlier run no longer apply. */
  spawnedAgain(teammate: string): void {
    for (const request of this.dependencies.store.closeShutdowns(teammate)) this.publish(request)
  }

  private pending(id: string, kind: ProtocolRequest['kind']): ProtocolRequest {
    const request = this.dependencies.store.get(id)
    if (!request || request.kind !== kind)
      throw new TeamError('not-found', `There is no ${kind} request ${id}.`)
    if (request.status !== 'pending')
      throw new TeamError(
        'already-settled',
        `The ${kind} request ${id} was already ${request.status}.`,
      )
    return request
  }

  private markPlanApproved(name: string, id: string): void {
    if (!this.team.roster.find(name)) return
    this.team.updateRoster((draft) => {
      const member = draft.members.find((candidate) => candidate.name === name)
      if (member) member.plan_approved = id
    })
  }

  private publish(request: ProtocolRequest): void {
    const event: TeamEvent = { type: 'protocol-changed', request: requestView(request) }
    this.team.publish(event)
  }
}

/** What the UI is shown of a request (the ids of its notices stay in the runtime). */
export function requestView(request: ProtocolRequest): ProtocolRequestView {
  return {
    id: request.id,
    kind: request.kind,
    from: request.from,
    to: request.to,
    status: request.status,
    plan: request.plan,
    reason: request.reason,
    ...(request.closed_at === null ? {} : { closed: true }),
  }
}
