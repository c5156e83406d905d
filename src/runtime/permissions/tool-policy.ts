import { isAbsolute, relative } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { TeamError } from '../../shared/errors'
import { ALWAYS_OFFERED_TOOLS, MCP_TOOL_PREFIX } from '../../shared/profiles'
import type { ToolUseBlock } from '../../shared/transcript'
import type { ApprovalRequest, NeedsYou } from '../needs-you/queue'
import { readConfined } from '../tools/confined-fs'
import { displayPath, realWorkspace, resolveInWorkspace } from '../tools/workspace-path'
import type { AgentPermission } from './agent-permissions'
import { commandMatches, commandPattern, writeMatches, writePattern } from './approval-patterns'

/** How the runtime decides, call by call, what an agent may do (agents/tool-calls.ts asks it). */
export interface ToolPolicy {
  /** Whether the model is offered `tool` now (its profile may change between calls). */
  offered(tool: string): boolean
  /** null: run the call; otherwise the `is_error` answer. May wait for the person (ask mode). */
  admit(call: ToolUseBlock, signal: AbortSignal): Promise<string | null>
}

export interface ToolPolicyDependencies {
  readonly agent: string
  readonly workspace: string
  readonly permission: () => AgentPermission
  readonly queue: NeedsYou
  /** The agent's own folder (its worktree) where writes need no approval; null: none. */
  readonly ownFolder: () => string | null
}

/** Diffs and MCP inputs larger than this are cut in the request: the person reads it. */
const MAX_DETAIL_CHARACTERS = 200_000

export function createToolPolicy(deps: ToolPolicyDependencies): ToolPolicy {
  const offered = (tool: string): boolean =>
    ALWAYS_OFFERED_TOOLS.has(tool) ||
    (tool.startsWith(MCP_TOOL_PREFIX)
      ? deps.permission().profile.mcp
      : (deps.permission().profile.tools as readonly string[]).includes(tool))
  return {
    offered,
    async admit(call, signal) {
      const permission = deps.permission()
      if (!offered(call.name)) {
        const { profile } = permission
        const why = permission.problem === null ? '' : ` (${permission.problem})`
        return `${call.name} is not among the tools of ${deps.agent}'s profile "${profile.name}"${why}: it may use ${profile.tools.join(', ') || 'no tools'}. Ask the lead or the person if the task needs more.`
      }
      if (permission.approval !== 'ask') return null
      const request = approvalRequest(deps, call)
      if (request === null) return null
      const decision = await deps.queue.requestApproval(request, signal)
      switch (decision.kind) {
        case 'approved':
          return null
        case 'denied':
          return `The person denied this call: ${decision.reason}`
        case 'cancelled':
          return `Not run: ${decision.reason} while the call waited for the person's approval.`
        case 'answered':
          return null
      }
    },
  }
}

/** The approval an ask-mode call needs, or null when it needs none (or a rule allows it). */
function approvalRequest(deps: ToolPolicyDependencies, call: ToolUseBlock): ApprovalRequest | null {
  const input = call.input as Record<string, unknown>
  const base = { agent: deps.agent, kind: 'tool' as const, tool: call.name, toolUseId: call.id }
  if (call.name === 'bash') {
    const command = typeof input['command'] === 'string' ? input['command'] : ''
    if (deps.queue.rules(deps.agent, 'bash').some((pattern) => commandMatches(pattern, command)))
      return null
    const pattern = commandPattern(command)
    return {
      ...base,
      summary: `bash: ${firstLine(command)}`,
      detail: command,
      ruleTool: 'bash',
      ...(pattern === null ? {} : { pattern }),
    }
  }
  // What an MCP tool does is unknown to the app, so every call asks; a rule names one tool.
  if (call.name.startsWith(MCP_TOOL_PREFIX)) {
    if (deps.queue.rules(deps.agent, 'mcp').includes(call.name)) return null
    return {
      ...base,
      summary: call.name,
      detail: cut(JSON.stringify(call.input, null, 2), 'input'),
      ruleTool: 'mcp',
      pattern: call.name,
    }
  }
  if (call.name === 'write_file' || call.name === 'edit_file') return writeRequest(deps, call)
  return null
}

/** A write outside the agent's own folder asks, with its diff; null when no approval is needed. */
function writeRequest(deps: ToolPolicyDependencies, call: ToolUseBlock): ApprovalRequest | null {
  const input = call.input as Record<string, unknown>
  const path = typeof input['path'] === 'string' ? input['path'] : ''
  let target: string
  try {
    target = resolveInWorkspace(deps.workspace, path, 'write')
  } catch {
    return null // the tool refuses it with the reason; there is nothing to approve
  }
  const own = deps.ownFolder()
  if (own !== null && isWithin(own, target)) return null
  const shown = displayPath(deps.workspace, target)
  if (deps.queue.rules(deps.agent, 'write').some((pattern) => writeMatches(pattern, shown)))
    return null
  return {
    agent: deps.agent,
    kind: 'tool',
    tool: call.name,
    toolUseId: call.id,
    summary: `${call.name}: ${shown}`,
    detail: cut(writeDiff(deps.workspace, target, shown, call.name, input), 'diff'),
    ruleTool: 'write',
    pattern: writePattern(shown),
  }
}

/** The change as a unified diff: the file as it is, and as the call would leave it. */
function writeDiff(
  workspace: string,
  target: string,
  shown: string,
  tool: string,
  input: Record<string, unknown>,
): string {
  const before = currentText(workspace, target, shown)
  let after: string
  if (tool === 'write_file') after = String(input['content'] ?? '')
  else {
    const oldText = String(input['old_text'] ?? '')
    const newText = String(input['new_text'] ?? '')
    const at = before === null || oldText === '' ? -1 : before.indexOf(oldText)
    if (before === null || at === -1)
      return createTwoFilesPatch(shown, shown, oldText, newText, 'old_text', 'new_text')
    after = before.slice(0, at) + newText + before.slice(at + oldText.length)
  }
  return createTwoFilesPatch(
    before === null ? '/dev/null' : shown,
    shown,
    before ?? '',
    after,
    before === null ? '' : 'current',
    'after the call',
  )
}

function currentText(workspace: string, target: string, shown: string): string | null {
  try {
    return readConfined(realWorkspace(workspace), target, shown, {
      maxBytes: 1024 * 1024,
      tooLarge: () => new TeamError('too-large', 'too large to show as a diff'),
    }).toString('utf8')
  } catch {
    return null
  }
}

function isWithin(folder: string, target: string): boolean {
  const inside = relative(folder, target)
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

function cut(text: string, what: 'diff' | 'input'): string {
  return text.length > MAX_DETAIL_CHARACTERS
    ? `${text.slice(0, MAX_DETAIL_CHARACTERS)}\n[${what} cut: ${text.length - MAX_DETAIL_CHARACTERS} more characters]`
    : text
}
