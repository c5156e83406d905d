import type { CanUseTool, HookCallback } from '@anthropic-ai/claude-agent-sdk'
import { mayChangeThings } from '../../../shared/profiles'
import type { AgentGuard } from '../../agents/agent-types'
import { asPolicyCall, readsOnly } from './tool-names'

/**
 * A Claude Code teammate's permissions, decided by this app: its profile, the plan gate and,
 * in ask mode, the person through the Needs-you queue. A PreToolUse hook sees every call
 * (Claude Code lets some run without asking): it refuses what the profile or the plan gate
 * refuses, and sends every other call that is not a read to `canUseTool` ("ask"), so that no
 * rule of Claude Code's own (an allow-list, a read-only bash command) skips the person.
 * `allowedTools` is never given: it would skip `canUseTool`.
 */
export function claudeCodePermissions(
  name: string,
  guard: AgentGuard,
): { canUseTool: CanUseTool; gate: HookCallback } {
  const refusal = (tool: string, input: unknown): string | null => {
    const call = asPolicyCall(tool, isObject(input) ? input : {}, 'gate')
    if (call === null) return `${tool} is not available to a teammate of this team.`
    if (!guard.toolPolicy.offered(call.name))
      return `${call.name} is not among the tools of ${name}'s profile.`
    return mayChangeThings(call.name) ? guard.planGate() : null
  }
  return {
    gate: async (hookInput) => {
      if (hookInput.hook_event_name !== 'PreToolUse' || readsOnly(hookInput.tool_name)) return {}
      const refused = refusal(hookInput.tool_name, hookInput.tool_input)
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: refused === null ? 'ask' : 'deny',
          ...(refused === null ? {} : { permissionDecisionReason: refused }),
        },
      }
    },
    canUseTool: async (tool, input, { signal, toolUseID }) => {
      if (readsOnly(tool)) return { behavior: 'allow', updatedInput: input }
      const call = asPolicyCall(tool, input, toolUseID)
      const denied =
        refusal(tool, input) ??
        (call === null ? 'refused' : await guard.toolPolicy.admit(call, signal))
      return denied === null
        ? { behavior: 'allow', updatedInput: input }
        : { behavior: 'deny', message: denied }
    },
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
