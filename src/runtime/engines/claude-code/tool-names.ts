import type { ToolUseBlock } from '../../../shared/transcript'

/** The in-process MCP server of the team's tools, as Claude Code names it. */
export const TEAM_SERVER = 'team'
export const TEAM_TOOL_PREFIX = `mcp__${TEAM_SERVER}__`

/**
 * Claude Code's own tools a teammate keeps: files, bash and its to-do list. Everything else is
 * left out (`tools`) and its coordination tools are refused by name too (`disallowedTools`), so
 * that this app's mailbox and board are the only team: no subagents, no second mailbox, no
 * task list, cron, wake-ups, workflows or worktrees of its own, no questions outside Needs-you.
 */
export const KEPT_TOOLS = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'TodoWrite',
]

export const REFUSED_TOOLS = [
  'Task',
  'Agent',
  'SendMessage',
  'ListAgents',
  'TeamCreate',
  'TeamDelete',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TaskStop',
  'TaskOutput',
  'CronCreate',
  'CronDelete',
  'CronList',
  'ScheduleWakeup',
  'RemoteTrigger',
  'Workflow',
  'EnterWorktree',
  'ExitWorktree',
  'Monitor',
  'DesignSync',
  'ReportFindings',
  'Skill',
  'AskUserQuestion',
  'WebFetch',
  'WebSearch',
  'EnterPlanMode',
  'ExitPlanMode',
]

/** Its to-do list and the tool search touch nothing of the team's: no decision is needed. */
const NO_DECISION = new Set(['TodoWrite', 'ToolSearch'])

/** The file or folder a file tool's call names, as given (absolute or relative to its root). */
export function pathOf(tool: string, input: Record<string, unknown>): string | undefined {
  const field =
    tool === 'NotebookEdit'
      ? 'notebook_path'
      : tool === 'Glob' || tool === 'Grep'
        ? 'path'
        : 'file_path'
  const value = input[field]
  return typeof value === 'string' ? value : undefined
}

/**
 * A Claude Code tool call as this app's permission profiles and approvals know it: `Bash` is
 * bash, `Write` write_file, the edits edit_file, the reads read_file, glob and grep, the team's
 * MCP tools by their own names. A tool this app has no rule for (a new one in a later Claude
 * Code) is refused: null.
 */
export function asPolicyCall(
  name: string,
  input: Record<string, unknown>,
  id: string,
): ToolUseBlock | null {
  const path = pathOf(name, input)
  switch (name) {
    case 'Bash':
      return { type: 'tool_use', id, name: 'bash', input: { command: input['command'] } }
    case 'Write':
      return {
        type: 'tool_use',
        id,
        name: 'write_file',
        input: { path, content: input['content'] },
      }
    case 'Edit':
      return {
        type: 'tool_use',
        id,
        name: 'edit_file',
        input: {
          path,
          old_text: input['old_string'],
          new_text: input['new_string'],
          ...(input['replace_all'] === true ? { replace_all: true } : {}),
        },
      }
    case 'NotebookEdit':
      return {
        type: 'tool_use',
        id,
        name: 'edit_file',
        input: { path, old_text: '', new_text: input['new_source'], edit_mode: input['edit_mode'] },
      }
    case 'Read':
      return { type: 'tool_use', id, name: 'read_file', input: { path } }
    case 'Glob':
      return { type: 'tool_use', id, name: 'glob', input }
    case 'Grep':
      return { type: 'tool_use', id, name: 'grep', input }
    default:
      if (name.startsWith(TEAM_TOOL_PREFIX))
        return { type: 'tool_use', id, name: name.slice(TEAM_TOOL_PREFIX.length), input }
      return null
  }
}

/** Whether a call needs no decision of the profile or the person (its to-do list). */
export function needsNoDecision(name: string): boolean {
  return NO_DECISION.has(name)
}
