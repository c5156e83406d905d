import { TeamError } from '../../shared/errors'
import { LEAD } from '../../shared/names'
import {
  assertProfileChoice,
  DEFAULT_TEAMMATE_PROFILE,
  type ApprovalMode,
} from '../../shared/profiles'
import type { RosterFile } from '../../shared/roster'
import type { Team } from '../team/team'
import { permissionOf } from './agent-permissions'
import type { ProfileStore } from './profile-store'

/** A change of an agent's permissions: a field left undefined stays; null goes back to the default. */
export interface ProfileChoiceChange {
  readonly profile?: string | null
  readonly approval?: ApprovalMode | null
}

/** Checks a change against the rules and the profiles that exist (any transport). */
export function assertProfileChange(store: ProfileStore, change: ProfileChoiceChange): void {
  assertProfileChoice(change)
  if (typeof change.profile !== 'string' || store.find(change.profile) !== undefined) return
  // Defined, but not usable now (the workspace is not trusted): say why, not "no such profile".
  if (store.list().some((profile) => profile.name === change.profile))
    throw new TeamError(
      'file-invalid',
      `The profile "${change.profile}" cannot be used: ${store.problem() ?? ''}.`,
    )
  throw new TeamError(
    'not-found',
    `There is no profile "${change.profile}"; the profiles are ${store
      .list()
      .map((profile) => profile.name)
      .join(', ')}.`,
  )
}

/**
 * Writes a checked change into a roster entry. plan_first follows the approval mode it ends in,
 * so the plan gate (protocols) applies exactly when the mode is plan-first.
 */
export function applyProfileChoice(
  entry: Record<string, unknown>,
  change: ProfileChoiceChange,
): void {
  if (change.profile === null) delete entry['profile']
  else if (change.profile !== undefined) entry['profile'] = change.profile
  if (change.approval === null) delete entry['approval']
  else if (change.approval !== undefined) entry['approval'] = change.approval
}

/** Changes `name`'s profile or approval mode in config.json; answers what it now has. */
export function setProfileChoice(
  team: Team,
  store: ProfileStore,
  name: string,
  change: ProfileChoiceChange,
): string {
  assertProfileChange(store, change)
  team.updateRoster((draft: RosterFile) => {
    if (name === LEAD) {
      const lead: Record<string, unknown> = { ...draft.lead }
      applyProfileChoice(lead, change)
      if (Object.keys(lead).length === 0) delete draft.lead
      else draft.lead = lead
      return
    }
    const member = draft.members.find((candidate) => candidate.name === name)
    if (!member) return
    const wasPlanFirst = member.plan_first === true
    applyProfileChoice(member, change)
    const profile = store.find(member.profile ?? DEFAULT_TEAMMATE_PROFILE)
    // A member spawned plan-first before approval modes existed stays so unless the mode changes.
    const mode =
      member.approval ??
      (wasPlanFirst && change.approval === undefined ? 'plan-first' : (profile?.approval ?? 'auto'))
    member.plan_first = mode === 'plan-first'
    // Turned plan-first now: a plan approved in an earlier mode does not count for this one.
    if (member.plan_first && !wasPlanFirst) member.plan_approved = null
  })
  return describePermission(team, store, name)
}

/** "alice: profile reviewer (read_file, grep, …), approvals ask." */
export function describePermission(team: Team, store: ProfileStore, name: string): string {
  const permission = permissionOf(team.roster.snapshot, store, name)
  const problem = permission.problem === null ? '' : ` Note: ${permission.problem}.`
  return `${name}: profile ${permission.profile.name} (${permission.profile.tools.join(', ')}), approvals ${permission.approval}.${problem}`
}
