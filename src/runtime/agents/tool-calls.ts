import type { Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import { mayChangeThings } from '../../shared/profiles'
import type { NewTranscriptRecord, ToolUseBlock, TranscriptRecord } from '../../shared/transcript'
import { READ_INBOX_DEFINITION } from '../tools/team-tools'
import type { ToolPolicy } from '../permissions/tool-policy'
import type { Tool, ToolOutcome } from '../tools/types'
import { unansweredToolCalls } from './conversation'

/** What running an agent's tool calls needs from the agent. */
export interface ToolCallsDependencies {
  readonly agent: string
  /**
   * The folder the tools work in (a teammate's worktree, or the workspace), per call; it waits
   * for the git work queued for the agent, and refuses (with why) when there is no such folder.
   */
  readonly workspace: () => Promise<string>
  /** Asked at every model call: MCP tools come and go with their servers. */
  readonly tools: () => readonly Tool[]
  readonly records: () => readonly TranscriptRecord[]
  readonly record: (record: NewTranscriptRecord) => void
  readonly emit: (event: TeamEvent) => void
  /**
   * `read_inbox` consumes the agent's own inbox, so the agent's intake answers it (and records
   * its result) rather than a tool.
   */
  readonly takeInbox: (call: ToolUseBlock) => Promise<string>
  /** A result cut to what the current model's context window can take. */
  readonly fitResult: (content: string) => {
    content: string
    cut?: { shown: number; total: number }
  }
  /** Why the tools that may change things are refused now (a plan not yet approved), or null. */
  readonly planGate: () => string | null
  /** The agent's profile and approvals: what is offered, and what waits for the person. */
  readonly policy?: ToolPolicy
  /** Whether a call left without a result still waits in the Needs-you queue (ask it again). */
  readonly stillWaiting?: (call: ToolUseBlock) => boolean
}

/** The tools an agent offers its model, and how each call is run and answered. */
export class ToolCalls {
  constructor(private readonly deps: ToolCallsDependencies) {}

  /** The tool definitions sent with every model call. */
  definitions(): ApiTool[] {
    return [
      ...this.offeredTools().map((tool) => tool.definition),
      READ_INBOX_DEFINITION,
    ] as ApiTool[]
  }

  /** The tools there are now (MCP tools come and go with their servers), by name. */
  private get byName(): Map<string, Tool> {
    return new Map(this.deps.tools().map((tool) => [tool.definition.name, tool]))
  }

  private offeredTools(): Tool[] {
    const policy = this.deps.policy
    return this.deps.tools().filter((tool) => policy?.offered(tool.definition.name) ?? true)
  }

  /** `refusal`, when given, answers the call with it instead of running it. */
  async run(call: ToolUseBlock, signal: AbortSignal, refusal: string | null = null): Promise<void> {
    const deps = this.deps
    let content: string
    let isError: boolean
    const gate = refusal ?? (mayChangeThings(call.name) ? deps.planGate() : null)
    // The profile and the person (ask mode) decide next; their answers speak for themselves.
    const denied =
      gate === null && this.byName.has(call.name)
        ? ((await deps.policy?.admit(call, signal)) ?? null)
        : null
    if (call.name === READ_INBOX_DEFINITION.name && gate === null) {
      content = await deps.takeInbox(call)
      isError = false
    } else {
      const outcome =
        gate !== null
          ? { content: `Refused by the runtime: ${gate}`, isError: true }
          : denied !== null
            ? { content: denied, isError: true }
            : await this.execute(call, signal)
      const sent = deps.fitResult(outcome.content)
      content = sent.content
      isError = outcome.isError
      deps.record({
        kind: 'tool-result',
        tool_use_id: call.id,
        name: call.name,
        content,
        is_error: isError,
        ...(sent.cut ? { cut: sent.cut } : {}),
        ...('images' in outcome && outcome.images && outcome.images.length > 0
          ? { images: [...outcome.images] }
          : {}),
      })
    }
    this.finished(call, content, isError)
  }

  /** Runs an admitted call; an unknown tool is answered with the tools there are. */
  private async execute(call: ToolUseBlock, signal: AbortSignal): Promise<ToolOutcome> {
    const tool = this.byName.get(call.name)
    if (tool) {
      let workspace: string
      try {
        workspace = await this.deps.workspace()
      } catch (error) {
        if (!(error instanceof TeamError)) throw error
        return { content: error.message, isError: true }
      }
      return tool.run(call.input, {
        workspace,
        agent: this.deps.agent,
        signal,
        callId: call.id,
        turn: lastTurn(this.deps.records()),
      })
    }
    const available = [
      ...this.offeredTools().map((offered) => offered.definition.name),
      READ_INBOX_DEFINITION.name,
    ]
    return {
      content: `Unknown tool "${call.name}". Available tools: ${available.join(', ')}.`,
      isError: true,
    }
  }

  /**
   * Calls left without a result that still wait in the Needs-you queue (the run was killed while
   * the person had not answered): nothing ran, so they wait on the same entry again.
   */
  async resumeWaiting(signal: AbortSignal): Promise<void> {
    const stillWaiting = this.deps.stillWaiting
    if (!stillWaiting) return
    for (const call of unansweredToolCalls(this.deps.records())) {
      if (signal.aborted) return
      if (stillWaiting(call)) await this.run(call, signal)
    }
  }

  /** A tool call found without its result (a crash, a stop) is answered, never re-run. */
  answerInterrupted(why = 'interrupted by a restart; outcome unknown'): void {
    for (const call of unansweredToolCalls(this.deps.records())) {
      const content = `The call was ${why}. It was not run again; check its effects before retrying.`
      this.deps.record({
        kind: 'tool-result',
        tool_use_id: call.id,
        name: call.name,
        content,
        is_error: true,
      })
      this.finished(call, content, true)
    }
  }

  private finished(call: ToolUseBlock, content: string, isError: boolean): void {
    this.deps.emit({
      type: 'tool-call-finished',
      agent: this.deps.agent,
      id: call.id,
      name: call.name,
      content,
      is_error: isError,
    })
  }
}

/** The seq of the latest model turn: the one whose tool calls are being run. */
function lastTurn(records: readonly TranscriptRecord[]): number | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]
    if (record?.kind === 'assistant') return record.seq
  }
  return undefined
}
