import {
  applyModelChoice,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import type { ApprovalMode } from '../../shared/profiles'
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
