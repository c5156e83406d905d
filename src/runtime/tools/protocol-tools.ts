import { z } from 'zod'
import { defineTool, type Tool } from './types'

/** What the protocol tools ask of the host; the calling agent is always `context.agent`. */
export interface ProtocolOperations {
  requestShutdown(request: { by: string; teammate: string }): string
  reviewPlan(request: { by: string; requestId: string; approve: boolean; feedback: string }): string
  respondToShutdown(request: {
    agent: string
    requestId: string
    approve: boolean
    reason: string
  }): string
  submitPlan(request: { agent: string; plan: string }): string
}

/** s10's protocol tools: shutdown and plan approval, each request carrying its id. */
export function protocolTools(operations: ProtocolOperations): { lead: Tool[]; teammate: Tool[] } {
  const shutdownRequest = defineTool(
    {
      name: 'shutdown_request',
      description:
        'Ask a teammate to shut down gracefully. It answers with shutdown_response (approve or not) carrying the request id.',
      input: z.object({ teammate: z.string() }),
    },
    async (input, context) =>
      operations.requestShutdown({ by: context.agent, teammate: input.teammate }),
  )
  const planApproval = defineTool(
    {
      name: 'plan_approval',
      description:
        "Approve or reject a teammate's plan by its request id. A rejection's feedback asks for a new plan.",
      input: z.object({
        request_id: z.string(),
        approve: z.boolean(),
        feedback: z.string().optional(),
      }),
    },
    async (input, context) =>
      operations.reviewPlan({
        by: context.agent,
        requestId: input.request_id,
        approve: input.approve,
        feedback: input.feedback ?? '',
      }),
  )
  const shutdownResponse = defineTool(
    {
      name: 'shutdown_response',
      description:
        'Answer a shutdown_request by its request id. Approving ends your work after this step.',
      input: z.object({
        request_id: z.string(),
        approve: z.boolean(),
        reason: z.string().optional(),
      }),
    },
    async (input, context) =>
      operations.respondToShutdown({
        agent: context.agent,
        requestId: input.request_id,
        approve: input.approve,
        reason: input.reason ?? '',
      }),
  )
  const submitPlan = defineTool(
    {
      name: 'submit_plan',
      description:
        'Submit your plan for approval. Until it is approved, bash, write_file, edit_file and MCP tools are refused.',
      input: z.object({ plan: z.string().min(1) }),
    },
    async (input, context) => operations.submitPlan({ agent: context.agent, plan: input.plan }),
  )
  return { lead: [shutdownRequest, planApproval], teammate: [shutdownResponse, submitPlan] }
}
