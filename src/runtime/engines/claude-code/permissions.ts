import type { CanUseTool, HookCallback } from '@anthropic-ai/claude-agent-sdk'
import { TeamError } from '../../../shared/errors'
import { mayChangeThings } from '../../../shared/profiles'
import type { AgentGuard } from '../../agents/agent-types'
import { resolveInWorkspace } from '../../tools/workspace-path'
import { isRecord } from './reported'
import { asPolicyCall, needsNoDecision, pathOf } from './tool-names'

/** What a Claude Code teammate's permissions are decided from. */
export interface PermissionContext {
  readonly name: string
  readonly guard: AgentGuard
  /** Where it works (its worktree, or the workspace): its file tools are confined to it. */
  readonly root: string
  /** Why it must stop now (a budget, a shutdown, the round cap), or null. */
  readonly stopReason: () => string | null
}

/**
 * A Claude Code teammate's permissions, decided by this app, never by Claude Code's own rules.
 * A PreToolUse hook sees every call (Claude Code lets some run without asking):
 * - it ends the session when the teammate must stop (a budget crossed mid-turn, a shutdown,
 *   the round cap);
 * - its file tools are confined as the built-in ones are (`resolveInWorkspace` on its root: not
 *   outside, not through a link, never `.team/`, and no write in `.git`), reads included;
 * - its profile and the plan gate refuse what they refuse;
 * - every other call that is not a read goes to `canUseTool` ("ask"), where ask mode waits for
 *   the person in Needs-you, so no rule of Claude Code's (an allow-list, a read-only bash
 *   command) skips the person. `allowedTools` is never given: it would skip `canUseTool`.
 */
export function claudeCodePermissions(context: PermissionContext): {
  canUseTool: CanUseTool
  gate: HookCallback
} {
  const { guard } = context
  const refusal = (tool: string, input: Record<string, unknown>): string | null => {
    const call = asPolicyCall(tool, input, 'gate')
    if (call === null) return `${tool} is not available to a teammate of this team.`
    const confined = confinement(context.root, tool, input)
    if (confined !== null) return confined
    if (!guard.toolPolicy.offered(call.name))
      return `${call.name} is not among the tools of ${context.name}'s profile.`
    return mayChangeThings(call.name) ? guard.planGate() : null
  }
  return {
    gate: async (hookInput) => {
      if (hookInput.hook_event_name !== 'PreToolUse') return {}
      const stop = context.stopReason()
      if (stop !== null)
        return {
          continue: false,
          stopReason: stop,
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: stop,
          },
        }
      const input = isRecord(hookInput.tool_input) ? hookInput.tool_input : {}
      const refused = needsNoDecision(hookInput.tool_name)
        ? null
        : refusal(hookInput.tool_name, input)
      if (refused === null && isRead(hookInput.tool_name)) return {}
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: refused === null ? 'ask' : 'deny',
          ...(refused === null ? {} : { permissionDecisionReason: refused }),
        },
      }
    },
    canUseTool: async (tool, input, { signal, toolUseID }) => {
      if (needsNoDecision(tool)) return { behavior: 'allow', updatedInput: input }
      const call = asPolicyCall(tool, input, toolUseID)
      const denied =
        context.stopReason() ??
        refusal(tool, input) ??
        (call === null ? 'refused' : await guard.toolPolicy.admit(call, signal))
      return denied === null
        ? { behavior: 'allow', updatedInput: input }
        : { behavior: 'deny', message: denied }
    },
  }
}

const READS = new Set(['Read', 'Glob', 'Grep'])
const WRITES = new Set(['Write', 'Edit', 'NotebookEdit'])

function isRead(tool: string): boolean {
  return READS.has(tool)
}

/**
 * Why a file tool's call goes outside what the built-in file tools may touch, or null. Its path
 * is resolved against its root as Claude Code resolves it; a glob pattern may not climb out.
 */
function confinement(root: string, tool: string, input: Record<string, unknown>): string | null {
  if (!READS.has(tool) && !WRITES.has(tool)) return null
  const path = pathOf(tool, input) ?? root
  const pattern = input['pattern']
  if (
    tool === 'Glob' &&
    typeof pattern === 'string' &&
    (pattern.startsWith('/') || pattern.split(/[\\/]/).includes('..'))
  )
    return `The pattern "${pattern}" leaves your folder; give one relative to it.`
  try {
    resolveInWorkspace(root, path, WRITES.has(tool) ? 'write' : 'read')
    return null
  } catch (error) {
    if (error instanceof TeamError) return error.message
    throw error
  }
}
