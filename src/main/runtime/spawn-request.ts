import {
  applyModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import { TeamError } from '../../shared/errors'
import { DEFAULT_TEAMMATE_PROFILE, type ApprovalMode } from '../../shared/profiles'
import type { ProfileStore } from './permissions/profile-store'
import type { Protocols } from './protocols/service'
import type { Team } from './team'
import { applyProfileChoice } from './permissions/profile-choice'
import type { Roster } from './roster/roster'

/** A spawn as the host takes it: from the person, the lead's tool or a control command. */
export type SpawnRequest = {
  name: string
  role: string
  prompt: string
  planFirst?: boolean
  by?: string
  /** Its permission profile; absent: a new member gets implementer, a re-spawn keeps its own. */
  profile?: string
  /** Its own approval mode; absent: its profile's (plan-first when planFirst is set). */
  approval?: ApprovalMode
} & ModelChoiceChange

type RosterDraft = Parameters<Parameters<Roster['update']>[0]>[0]

/** Puts the spawned member on the roster as working: a new one, or one spawned again. */
export function enrollMember(
  draft: RosterDraft,
  request: SpawnRequest,
  now: number,
  profileApproval: (profile: string | undefined) => ApprovalMode,
): void {
  const existing = draft.members.find((candidate) => candidate.name === request.name)
  const profile = request.profile ?? existing?.profile
  const mode = request.approval ?? (request.planFirst ? 'plan-first' : profileApproval(profile))
  const fields = {
    role: request.role,
    status: 'working' as const,
    plan_first: mode === 'plan-first',
    plan_approved: null,
  }
  const permissions = {
    ...(request.profile === undefined ? {} : { profile: request.profile }),
    ...(request.approval === undefined ? {} : { approval: request.approval }),
  }
  // A re-spawn keeps its model and thinking unless the request says otherwise.
  const choice = { model: request.model, thinking: request.thinking }
  if (existing) {
    Object.assign(existing, fields, { updated_at: now })
    applyModelChoice(existing, choice)
    applyProfileChoice(existing, permissions)
  } else {
    const member = { name: request.name, ...fields, created_at: now }
    applyModelChoice(member, choice)
    applyProfileChoice(member, permissions)
    draft.members.push(member)
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
): void {
  const { team } = parts
  const member = team.roster.find(request.name)
  // The roster's status decides: an agent that reported idle may still be finishing its
  // last step, and a new turn then simply keeps it going.
  if (member?.status === 'working' || member?.status === 'waiting-for-you') {
    throw new TeamError(
      'member-working',
      member.status === 'working'
        ? `"${request.name}" is working right now; wait until it is idle, or stop it first.`
        : `"${request.name}" is waiting for your answer in the Needs-you queue; answer it, or stop it first.`,
    )
  }
  const previous = member?.status
  team.updateRoster((draft) =>
    enrollMember(
      draft,
      request,
      now,
      (profile) => parts.profiles.find(profile ?? DEFAULT_TEAMMATE_PROFILE)?.approval ?? 'auto',
    ),
  )
  if (previous === undefined) return
  // Its earlier run's shutdown answer ("shutting down after this step") is over.
  parts.protocols.spawnedAgain(request.name)
  team.publish({
    type: 'agent-status-changed',
    name: request.name,
    previous,
    status: 'working',
    reason: 'spawned again',
  })
}

/** The spawned agent's first turn: its prompt, and the plan-first rule when it applies. */
export function spawnTask(request: SpawnRequest, planFirst: boolean): string {
  return planFirst
    ? `${request.prompt}\n\n(You were spawned plan-first: submit your plan with submit_plan and wait for its approval before changing anything.)`
    : request.prompt
}

/** What the spawn answers: the member, its role, model and thinking. */
export function spawnSummary(request: SpawnRequest, choice: ModelChoice): string {
  const model = choice.model === null ? '' : `, model: ${choice.model}`
  const thinking = choice.thinking === null ? '' : `, thinking: ${choice.thinking} tokens`
  const profile = request.profile === undefined ? '' : `, profile: ${request.profile}`
  const approval = request.approval === undefined ? '' : `, approvals: ${request.approval}`
  return `Spawned '${request.name}' (role: ${request.role}${model}${thinking}${profile}${approval})${request.planFirst ? ', plan first' : ''}`
}
