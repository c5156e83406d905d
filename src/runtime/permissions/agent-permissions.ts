import { LEAD } from '../../shared/names'
import {
  approvalModeSchema,
  BUILT_IN_PROFILES,
  DEFAULT_LEAD_PROFILE,
  DEFAULT_TEAMMATE_PROFILE,
  profileNameSchema,
  type ApprovalMode,
  type Profile,
} from '../../shared/profiles'
import type { RosterFile } from '../../shared/roster'
import type { ProfileStore } from './profile-store'

/** An agent's permissions as they apply to its next tool call. */
export interface AgentPermission {
  readonly profile: Profile
  readonly approval: ApprovalMode
  /** Why the profile it names does not apply (unknown, or the file is damaged), or null. */
  readonly problem: string | null
}

const READ_ONLY = BUILT_IN_PROFILES[0] as Profile

/** The roster entry's profile and mode fields; the lead's live in the roster's `lead` object. */
function entryOf(roster: RosterFile, name: string): Record<string, unknown> | undefined {
  if (name === LEAD) return roster.lead
  return roster.members.find((member) => member.name === name)
}

/**
 * The profile and approval mode of `name`, read from config.json and the profile store. A
 * profile that cannot be found gives the read-only reviewer's tools, never more, with the
 * reason (a deleted custom profile must not widen what the agent may do).
 */
export function permissionOf(
  roster: RosterFile,
  store: ProfileStore,
  name: string,
): AgentPermission {
  const entry = entryOf(roster, name)
  const named = profileNameSchema.safeParse(entry?.['profile'])
  const profileName = named.success
    ? named.data
    : name === LEAD
      ? DEFAULT_LEAD_PROFILE
      : DEFAULT_TEAMMATE_PROFILE
  const found = store.find(profileName)
  const refused =
    found === undefined && store.list().some((profile) => profile.name === profileName)
  const problem =
    found !== undefined
      ? null
      : refused
        ? `its profile "${profileName}" is not used: ${store.problem() ?? ''}; it has the reviewer's read-only tools meanwhile`
        : `its profile "${profileName}" is not defined${store.problem() === null ? '' : ` (${store.problem()})`}; it has the reviewer's read-only tools until it is`
  const profile = found ?? READ_ONLY
  const own = approvalModeSchema.safeParse(entry?.['approval'])
  const approval: ApprovalMode = own.success
    ? own.data
    : entry?.['plan_first'] === true
      ? 'plan-first'
      : profile.approval
  return { profile, approval, problem }
}
