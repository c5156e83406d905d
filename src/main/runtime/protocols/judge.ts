import type { MailMessage } from '../../../shared/messages'
import { LEAD, USER } from '../../../shared/names'
import type { ProtocolRequest, ProtocolStore } from './store'

/** A protocol message's verdict when it reaches `recipient`: accepted (with its effect) or not. */
export type ProtocolVerdict =
  | {
      readonly accepted: true
      readonly settled?: ProtocolRequest
      readonly created?: ProtocolRequest
    }
  | { readonly accepted: false; readonly reason: string }

function requestId(message: MailMessage): string | null {
  const id = message.extra.request_id
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : null
}

/**
 * Applies the s10 protocols to a message as it is delivered. Ordinary messages pass; a
 * shutdown request registers (or is refused when its id was used); a response must answer a
 * pending request of the right kind, from the agent that was asked, or it is rejected.
 */
export function judgeProtocolMessage(
  store: ProtocolStore,
  recipient: string,
  message: MailMessage,
): ProtocolVerdict {
  // The same message judged again after a crash before its delivery was committed: its effect
  // stands already, and it is delivered, not refused.
  const again = requestId(message) ?? message.id
  const earlier = store.get(again)
  if (earlier?.settled_by === message.id) return { accepted: true }
  switch (message.type) {
    case 'message':
    case 'broadcast':
      return { accepted: true }
    case 'shutdown_request': {
      const id = requestId(message) ?? message.id
      const existing = store.get(id)
      if (existing)
        return existing.to === recipient && existing.status === 'pending'
          ? { accepted: true }
          : {
              accepted: false,
              reason: `shutdown request ${id} was already ${existing.status === 'pending' ? 'made to another agent' : existing.status}`,
            }
      if (message.from !== LEAD && message.from !== USER)
        return {
          accepted: false,
          reason: `only the lead or the person may ask for a shutdown, not "${message.from}"`,
        }
      return {
        accepted: true,
        created: store.create({ id, kind: 'shutdown', from: message.from, to: recipient }),
      }
    }
    case 'shutdown_response': {
      const id = requestId(message)
      if (id === null)
        return { accepted: false, reason: 'a shutdown_response needs the request_id it answers' }
      const request = store.get(id)
      if (!request || request.kind !== 'shutdown')
        return { accepted: false, reason: `unknown shutdown request ${id}` }
      if (request.status !== 'pending')
        return {
          accepted: false,
          reason: `shutdown request ${id} was already settled (${request.status})`,
        }
      if (request.to !== message.from)
        return {
          accepted: false,
          reason: `shutdown request ${id} was made to "${request.to}", not "${message.from}"`,
        }
      return {
        accepted: true,
        settled: store.settle(id, message.extra.approve === true, reasonOf(message), message.id),
      }
    }
    case 'plan_approval_response': {
      const id = requestId(message)
      if (id === null) return { accepted: false, reason: 'a plan message needs its request_id' }
      const request = store.get(id)
      if (!request || request.kind !== 'plan')
        return { accepted: false, reason: `unknown plan request ${id}` }
      // The submission reaching the reviewer, as the runtime sent it; shown even when
      // the person settled it meanwhile, so that the lead knows what was submitted.
      if (recipient === request.to)
        return request.from === message.from
          ? { accepted: true }
          : {
              accepted: false,
              reason: `plan ${id} was submitted by "${request.from}", not "${message.from}"`,
            }
      if (request.status !== 'pending')
        return {
          accepted: false,
          reason: `plan request ${id} was already settled (${request.status}); submit a new plan`,
        }
      // The review reaching the teammate: only the lead or the person may decide.
      if (recipient !== request.from)
        return { accepted: false, reason: `plan ${id} belongs to "${request.from}"` }
      if (message.from !== LEAD && message.from !== USER)
        return {
          accepted: false,
          reason: `only the lead or the person may review a plan, not "${message.from}"`,
        }
      if (typeof message.extra.approve !== 'boolean')
        return { accepted: false, reason: 'a plan review needs "approve": true or false' }
      return {
        accepted: true,
        settled: store.settle(id, message.extra.approve, reasonOf(message), message.id),
      }
    }
  }
}

function reasonOf(message: MailMessage): string | null {
  const value = message.extra.reason ?? message.extra.feedback
  if (typeof value === 'string') return value
  return message.content.length > 0 ? message.content : null
}
