import { z } from 'zod'
import type { NeedsYou } from '../needs-you/queue'
import { defineTool, ToolFailure, type Tool } from './types'

/**
 * ask_user: a question to the person, through the Needs-you queue. The agent waits (status
 * `waiting-for-you`) until the person answers; the answer is the tool's result, a refusal an
 * `is_error` result with the reason.
 */
export function askUserTool(queue: NeedsYou): Tool {
  return defineTool(
    {
      name: 'ask_user',
      description:
        'Ask the person (the human leading the team) a question and wait for the answer. ' +
        'Use it when you cannot go on without a decision only they can make; it may take a while.',
      input: z.object({ question: z.string().min(1).max(20_000) }),
    },
    async (input, context) => {
      const firstLine = input.question.split('\n')[0] ?? ''
      const decision = await queue.requestApproval(
        {
          agent: context.agent,
          kind: 'question',
          summary: firstLine.length > 200 ? `${firstLine.slice(0, 199)}…` : firstLine,
          detail: input.question,
          ...(context.callId === undefined ? {} : { toolUseId: context.callId }),
        },
        context.signal,
      )
      switch (decision.kind) {
        case 'answered':
          return decision.text
        case 'denied':
          throw new ToolFailure(`The person declined to answer: ${decision.reason}`)
        case 'cancelled':
          throw new ToolFailure(`No answer: ${decision.reason} while the question waited.`)
        case 'approved':
          return 'The person acknowledged the question without words.'
      }
    },
  )
}
