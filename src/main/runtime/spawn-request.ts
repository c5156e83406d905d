import {
  applyModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import type { MemberWorktree } from '../../shared/worktree'
import type { Roster } from './roster/roster'

/** A spawn as the host takes it: from the person, the lead's tool or a control command. */
export type SpawnRequest = {
  name: string
  role: string
  prompt: string
  planFirst?: boolean
  by?: string
  /** Its own git worktree: true or false; absent: the team's default (on in a git repository). */
  worktree?: boolean
  /** Claims pending tasks by itself when idle (config.json's `auto_claim`); absent: unchanged. */
  autoClaim?: boolean
  /** The MCP servers it may use; null: every server; absent: as it was (every one when new). */
  mcpServers?: readonly string[] | null
} & ModelChoiceChange

type RosterDraft = Parameters<Parameters<Roster['update']>[0]>[0]

/** Puts the spawned member on the roster as working: a new one, or one spawned again. */
export function enrollMember(
  draft: RosterDraft,
  request: SpawnRequest,
  now: number,
  worktree: MemberWorktree | null = null,
): void {
  const existing = draft.members.find((candidate) => candidate.name === request.name)
  const fields = {
    role: request.role,
    status: 'working' as const,
    plan_first: request.planFirst === true,
    plan_approved: null,
    ...(worktree === null ? {} : { worktree }),
  }
  // A re-spawn keeps its model and thinking unless the request says otherwise.
  const choice = { model: request.model, thinking: request.thinking }
  // Auto-claim, like the model, stays as it was on a re-spawn that does not say.
  const autoClaim = request.autoClaim === undefined ? {} : { auto_claim: request.autoClaim }
  if (existing) {
    Object.assign(existing, fields, autoClaim, { updated_at: now })
    applyModelChoice(existing, choice)
    applyServerChoice(existing, request.mcpServers)
  } else {
    const member: typeof fields & { name: string; created_at: number; mcp_servers?: string[] } = {
      name: request.name,
      ...fields,
      ...autoClaim,
      created_at: now,
    }
    applyModelChoice(member, choice)
    applyServerChoice(member, request.mcpServers)
    draft.members.push(member)
  }
}

/** What a plan-first spawn adds to the prompt (a saved template takes it off again). */
export const PLAN_FIRST_NOTE =
  '\n\n(You were spawned plan-first: submit your plan with submit_plan and wait for its approval before changing anything.)'

function applyServerChoice(
  member: { mcp_servers?: string[] | null },
  servers: readonly string[] | null | undefined,
): void {
  if (servers === null) delete member.mcp_servers
  else if (servers !== undefined) member.mcp_servers = [...new Set(servers)]
}

/** The spawned agent's first turn: its prompt, and the plan-first rule when it applies. */
export function spawnTask(request: SpawnRequest): string {
  return request.planFirst ? `${request.prompt}${PLAN_FIRST_NOTE}` : request.prompt
}

/** What the spawn answers: the member, its role, model and thinking. */
export function spawnSummary(request: SpawnRequest, choice: ModelChoice): string {
  const model = choice.model === null ? '' : `, model: ${choice.model}`
  const thinking = choice.thinking === null ? '' : `, thinking: ${choice.thinking} tokens`
  const servers =
    request.mcpServers === undefined || request.mcpServers === null
      ? ''
      : `, MCP servers: ${request.mcpServers.length === 0 ? 'none' : request.mcpServers.join(', ')}`
  return `Spawned '${request.name}' (role: ${request.role}${model}${thinking}${servers})${request.planFirst ? ', plan first' : ''}${request.autoClaim === true ? ', auto-claims tasks' : ''}`
}
