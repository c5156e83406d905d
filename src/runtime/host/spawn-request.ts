import { DEFAULT_ENGINE, ENGINE_LABELS, type EngineName } from '../../shared/engine'
import { statusChangedEvent } from '../../shared/events'
import {
  applyModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import { TeamError } from '../../shared/errors'
import { USER } from '../../shared/names'
import { DEFAULT_TEAMMATE_PROFILE, type ApprovalMode } from '../../shared/profiles'
import type { MemberWorktree } from '../../shared/worktree'
import type { AgentPermission } from '../permissions/agent-permissions'
import type { ProfileStore } from '../permissions/profile-store'
import { applyProfileChoice } from '../permissions/profile-choice'
import type { Protocols } from '../protocols/service'
import type { Roster } from '../roster/roster'
import type { Team } from '../team/team'

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
  /** Its permission profile; absent: a new member gets implementer, a re-spawn keeps its own. */
  profile?: string
  /** Its own approval mode; absent: its profile's (plan-first when planFirst is set). */
  approval?: ApprovalMode
  /** What runs its turns; absent: a new member runs builtin, a re-spawn keeps its own. */
  engine?: EngineName
} & ModelChoiceChange

type RosterDraft = Parameters<Parameters<Roster['update']>[0]>[0]

/** Puts the spawned member on the roster as working: a new one, or one spawned again. */
export function enrollMember(
  draft: RosterDraft,
  request: SpawnRequest,
  now: number,
  profileApproval: (profile: string | undefined) => ApprovalMode,
  worktree: MemberWorktree | null = null,
): void {
  const existing = draft.members.find((candidate) => candidate.name === request.name)
  const profile = request.profile ?? existing?.profile
  // Absent means unchanged: a member's own mode (plan-first included) does not fall back to
  // its profile's because a re-spawn did not repeat it.
  const mode =
    request.approval ??
    (request.planFirst === true
      ? 'plan-first'
      : (ownApproval(existing) ?? profileApproval(profile)))
  const fields = {
    role: request.role,
    status: 'working' as const,
    plan_first: mode === 'plan-first',
    plan_approved: null,
    ...(worktree === null ? {} : { worktree }),
  }
  const permissions = {
    ...(request.profile === undefined ? {} : { profile: request.profile }),
    ...(request.approval === undefined ? {} : { approval: request.approval }),
  }
  // A re-spawn keeps its model and thinking unless the request says otherwise.
  const choice = { model: request.model, thinking: request.thinking }
  // Auto-claim, like the model, stays as it was on a re-spawn that does not say.
  const autoClaim = request.autoClaim === undefined ? {} : { auto_claim: request.autoClaim }
  if (existing) {
    Object.assign(existing, fields, autoClaim, { updated_at: now })
    applyModelChoice(existing, choice)
    applyServerChoice(existing, request.mcpServers)
    applyProfileChoice(existing, permissions)
    applyEngineChoice(existing, request.engine)
  } else {
    const member: typeof fields & {
      name: string
      created_at: number
      mcp_servers?: string[]
      engine?: EngineName
    } = {
      name: request.name,
      ...fields,
      ...autoClaim,
      created_at: now,
    }
    applyModelChoice(member, choice)
    applyServerChoice(member, request.mcpServers)
    applyProfileChoice(member, permissions)
    applyEngineChoice(member, request.engine)
    draft.members.push(member)
  }
}

/** The approval mode a roster entry holds itself, or undefined when its profile decides. */
function ownApproval(
  member: { approval?: ApprovalMode; plan_first?: unknown } | undefined,
): ApprovalMode | undefined {
  return member?.approval ?? (member?.plan_first === true ? 'plan-first' : undefined)
}

/**
 * The spawn as it may apply. Only the person changes a member's rights and engine: for a member
 * already on the roster, a spawn by anyone else (the lead's spawn_teammate) leaves out its
 * profile, approval mode, plan-first, MCP servers and engine, so the member keeps its own
 * (absent means unchanged). `refused` names what was asked and left out, for the answer; a new
 * member is spawned as asked.
 */
export function spawnAsAllowed(
  request: SpawnRequest,
  onRoster: boolean,
): { allowed: SpawnRequest; refused: string[] } {
  if (!onRoster || request.by === USER) return { allowed: request, refused: [] }
  const { profile, approval, planFirst, mcpServers, engine, ...allowed } = request
  const refused = [
    ...(profile === undefined ? [] : [`profile ${profile}`]),
    ...(approval === undefined ? [] : [`approvals ${approval}`]),
    ...(planFirst === undefined ? [] : [planFirst ? 'plan first' : 'not plan first']),
    ...(mcpServers === undefined ? [] : [`MCP servers: ${serverList(mcpServers)}`]),
    ...(engine === undefined ? [] : [`engine ${engine}`]),
  ]
  return { allowed, refused }
}

/**
 * What a re-spawn by anyone but the person says of the rights (and the engine, when the spawn
 * asked for one) it kept; '' when none was asked.
 */
export function keptNote(
  name: string,
  refused: readonly string[],
  kept: {
    readonly permission: AgentPermission
    readonly servers: readonly string[] | null | undefined
    readonly engine: EngineName
  },
): string {
  if (refused.length === 0) return ''
  const own = [
    `profile ${kept.permission.profile.name}`,
    `approvals ${kept.permission.approval}`,
    `MCP servers: ${serverList(kept.servers ?? null)}`,
    ...(refused.some((item) => item.startsWith('engine ')) ? [`engine ${kept.engine}`] : []),
  ]
  const listed = `${own.slice(0, -1).join(', ')} and ${own.at(-1) ?? ''}`
  return `kept ${name}'s own ${listed} (the spawn asked for ${refused.join(', ')}): only the person changes these (window: Profile… or Spawn; CLI: agent-teams profile, agent-teams spawn)`
}

function serverList(servers: readonly string[] | null): string {
  return servers === null ? 'all' : servers.length === 0 ? 'none' : servers.join(', ')
}

/** Refuses a spawn of a working agent, or one waiting for the person: its step is not over. */
export function assertSpawnable(team: Team, name: string): void {
  const member = team.roster.find(name)
  // The roster's status decides: an agent that reported idle may still be finishing its
  // last step, and a new turn then simply keeps it going.
  if (member?.status === 'working' || member?.status === 'waiting-for-you') {
    throw new TeamError(
      'member-working',
      member.status === 'working'
        ? `"${name}" is working right now; wait until it is idle, or stop it first.`
        : `"${name}" is waiting for your answer in the Needs-you queue; answer it, or stop it first.`,
    )
  }
}

/**
 * Checks that `request.name` may be spawned now and writes it to the roster as working. A
 * working agent, or one waiting for the person, is refused: its step is not over.
 */
export function enrollSpawn(
  parts: { team: Team; protocols: Protocols; profiles: ProfileStore },
  request: SpawnRequest,
  now: number,
  worktree: MemberWorktree | null = null,
): void {
  const { team } = parts
  assertSpawnable(team, request.name)
  const previous = team.roster.find(request.name)?.status
  team.updateRoster((draft) =>
    enrollMember(
      draft,
      request,
      now,
      (profile) => parts.profiles.find(profile ?? DEFAULT_TEAMMATE_PROFILE)?.approval ?? 'auto',
      worktree,
    ),
  )
  if (previous === undefined) return
  // Its earlier run's shutdown answer ("shutting down after this step") is over.
  parts.protocols.spawnedAgain(request.name)
  team.publish(
    statusChangedEvent({
      name: request.name,
      previous,
      status: 'working',
      reason: 'spawned again',
    }),
  )
}

/** What a plan-first spawn adds to the prompt (a saved template takes it off again). */
export const PLAN_FIRST_NOTE =
  '\n\n(You were spawned plan-first: submit your plan with submit_plan and wait for its approval before changing anything.)'

/** The engine a spawn asks for: absent leaves it, builtin is the field left off. */
function applyEngineChoice(member: { engine?: EngineName }, engine: EngineName | undefined): void {
  if (engine === DEFAULT_ENGINE) delete member.engine
  else if (engine !== undefined) member.engine = engine
}

function applyServerChoice(
  member: { mcp_servers?: string[] | null },
  servers: readonly string[] | null | undefined,
): void {
  if (servers === null) delete member.mcp_servers
  else if (servers !== undefined) member.mcp_servers = [...new Set(servers)]
}

/** The spawned agent's first turn: its prompt, and the plan-first rule when it applies. */
export function spawnTask(request: SpawnRequest, planFirst: boolean): string {
  return planFirst ? `${request.prompt}${PLAN_FIRST_NOTE}` : request.prompt
}

/**
 * What the spawn answers: the member, its role, model, thinking, servers, permissions and,
 * when it is not the built-in one, its engine.
 */
export function spawnSummary(
  request: SpawnRequest,
  choice: ModelChoice,
  engine: EngineName = DEFAULT_ENGINE,
): string {
  const model = choice.model === null ? '' : `, model: ${choice.model}`
  const thinking = choice.thinking === null ? '' : `, thinking: ${choice.thinking} tokens`
  const servers =
    request.mcpServers === undefined || request.mcpServers === null
      ? ''
      : `, MCP servers: ${serverList(request.mcpServers)}`
  const profile = request.profile === undefined ? '' : `, profile: ${request.profile}`
  const approval = request.approval === undefined ? '' : `, approvals: ${request.approval}`
  const runs = engine === DEFAULT_ENGINE ? '' : `, engine: ${ENGINE_LABELS[engine]}`
  return `Spawned '${request.name}' (role: ${request.role}${model}${thinking}${servers}${profile}${approval}${runs})${request.planFirst ? ', plan first' : ''}${request.autoClaim === true ? ', auto-claims tasks' : ''}`
}
