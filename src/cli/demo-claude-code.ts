import { TeamError } from '../shared/errors'
import { locateClaudeCode } from '../runtime/engines/claude-code/availability'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'

/**
 * `agent-teams demo --claude-code`: bob, the demo's tester, runs as a Claude Code session (the
 * real binary, sandboxed, talking to the offline model, which plays his part in Claude Code's
 * tool names). The person's request asks for it (DEMO_REQUEST_CLAUDE_CODE), and the lead
 * spawns bob with engine claude-code.
 *
 * Two things it needs no setting for. The model: Claude Code sends the id it is given
 * ("offline-demo") as it is, and a known id would only have the app price an offline run at
 * that model's rates. Root: Claude Code refuses root without IS_SANDBOX=1 only for
 * bypassPermissions, which the engine never asks for (its permissions go through the team).
 */
export const DEMO_CLAUDE_CODE_MEMBER = { name: 'bob', role: 'tester' } as const

/** Refuses --claude-code where Claude Code cannot run here, saying why and what runs instead. */
export function assertClaudeCodeRuns(): void {
  const found = locateClaudeCode()
  if ('problem' in found)
    throw new TeamError(
      'engine-unavailable',
      `${found.problem} "agent-teams demo" without --claude-code runs the whole demo on the built-in engine.`,
    )
}

/** Whether Claude Code can run here (the demo then mentions --claude-code). */
export function claudeCodeInstalled(): boolean {
  return !('problem' in locateClaudeCode())
}

/**
 * Refuses --claude-code in a folder whose roster has bob on another engine (the demo ran there
 * before without it): the lead's spawn keeps a member's own engine, so he would stay on it.
 */
export function assertTesterMayRunClaudeCode(workspace: string): void {
  const { name } = DEMO_CLAUDE_CODE_MEMBER
  const member = Roster.read(new TeamPaths(workspace)).members.find(
    (candidate) => candidate.name === name,
  )
  if (member === undefined || member.engine === 'claude-code') return
  throw new TeamError(
    'already-exists',
    `${name} is on the roster of ${workspace} already, on the built-in engine, and the lead's spawn keeps a member's own engine. Run "agent-teams demo --claude-code" without --workspace (a fresh folder), or in a folder without a team.`,
  )
}
