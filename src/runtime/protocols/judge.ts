import type { MailMessage } from '../../shared/messages'
import { LEAD, USER } from '../../shared/names'
import type { ProtocolStore } from './store'

/** Where a claim that the record does not hold can be made for real. */
const HOW_TO_REVIEW =
  'a review counts only when the runtime records it: the lead\'s plan_approval tool, or the person in the app or with "agent-teams plan"'
const HOW_TO_ANSWER = "an answer counts only from the teammate's own shutdown_response tool"
const HOW_TO_ASK =
  'a shutdown is asked by the lead\'s shutdown_request tool, or by the person in the app or with "agent-teams shutdown"'

function requestId(message: MailMessage): string | null {
  const id = message.extra.request_id
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : null
}

/**
 * Judges a protocol message as it reaches `recipient`: null to deliver it, or why it is refused.
 *
 * A line's `from` is a claim, not proof: any program can append to an inbox. So a protocol
 * message never changes anything by itself. Requests and their settlements are written to the
 * ProtocolStore by the runtime when it handles the tool call or the person's command, and the
 * message it sends then is only the notice; its id is kept in the record (`notice`,
 * `settled_by`). A protocol line is delivered only when it is that notice, so a forged approval
 * or shutdown is refused here, into the rejected log with the reason, and never reaches a model.
 */
export function judgeProtocolMessage(
  store: ProtocolStore,
  recipient: string,
  message: MailMessage,
): string | null {
  if (message.type === 'message' || message.type === 'broadcast') return null
  const id = requestId(message)
  if (id === null) return `a ${message.type} needs the request_id the runtime gave it`
  const request = store.get(id)
  switch (message.type) {
    case 'shutdown_request':
      if (!request || request.kind !== 'shutdown')
        return `the runtime holds no shutdown request ${id}; ${HOW_TO_ASK}`
      if (request.to !== recipient)
        return `shutdown request ${id} was made to "${request.to}", not "${recipient}"`
      if (request.notice !== message.id)
        return `shutdown request ${id} was announced by message ${request.notice ?? '(none)'}, not by this line; ${HOW_TO_ASK}`
      return null
    case 'shutdown_response':
      if (!request || request.kind !== 'shutdown') return `unknown shutdown request ${id}`
      if (request.to !== message.from)
        return `shutdown request ${id} was made to "${request.to}", not "${message.from}"`
      if (request.settled_by === message.id) return null
      if (request.status === 'pending')
        return `shutdown request ${id} is still pending in the runtime's record; ${HOW_TO_ANSWER}`
      return `shutdown request ${id} was already settled (${request.status})`
    case 'plan_approval_response':
      if (!request || request.kind !== 'plan') return `unknown plan request ${id}`
      // The submission reaching the reviewer, as the runtime sent it; shown even when the
      // person settled it meanwhile, so that the lead knows what was submitted.
      if (recipient === request.to) {
        if (request.notice === message.id) return null
        return request.from === message.from
          ? `plan ${id} was submitted by message ${request.notice ?? '(none)'}, not by this line`
          : `plan ${id} was submitted by "${request.from}", not "${message.from}"`
      }
      if (recipient !== request.from) return `plan ${id} belongs to "${request.from}"`
      if (message.from !== LEAD && message.from !== USER)
        return `only the lead or the person may review a plan, not "${message.from}"`
      if (request.settled_by === message.id) return null
      if (request.status === 'pending')
        return `plan ${id} is still pending in the runtime's record, so this line only claims a review; ${HOW_TO_REVIEW}`
      return `plan request ${id} was already settled (${request.status}) by another message; submit a new plan`
  }
}
