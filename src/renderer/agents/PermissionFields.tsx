import { useEffect, useId, useState } from 'react'
import {
  APPROVAL_MODES,
  BUILT_IN_PROFILES,
  DEFAULT_TEAMMATE_PROFILE,
  type ApprovalMode,
} from '../../shared/profiles'
import { useAppStore } from '../store/context'
import { Field } from '../ui/Field'

export interface PermissionChoice {
  readonly profile: string
  /** null: the profile's own mode. */
  readonly approval: ApprovalMode | null
}

export const defaultPermissionChoice: PermissionChoice = {
  profile: DEFAULT_TEAMMATE_PROFILE,
  approval: null,
}

export const APPROVAL_WORDS: Record<ApprovalMode, string> = {
  auto: 'Auto: no approvals',
  ask: 'Ask: bash and writes wait for you',
  'plan-first': 'Plan first: a plan, approved, before any change',
}

interface ProfileOption {
  readonly name: string
  readonly tools: readonly string[]
}

/**
 * Which tools an agent gets, and what waits for you: the spawn dialog's and the Profile
 * dialog's. `profiles` given: offered as they are (the Profile dialog holds the list, which a
 * new custom profile changes); left out: the team's, fetched here, the lead's excepted.
 */
export function PermissionFields({
  value,
  onChange,
  profiles: given,
}: {
  readonly value: PermissionChoice
  readonly onChange: (value: PermissionChoice) => void
  readonly profiles?: readonly ProfileOption[]
}) {
  const ids = { profile: useId(), approval: useId() }
  const getProfiles = useAppStore((state) => state.getProfiles)
  const [fetched, setProfiles] = useState<readonly ProfileOption[]>(
    BUILT_IN_PROFILES.filter((profile) => profile.name !== 'lead'),
  )
  const profiles = given ?? fetched
  useEffect(() => {
    if (given !== undefined) return
    let live = true
    getProfiles()
      .then((reply) => {
        const usable = reply.profiles.filter((profile) => profile.name !== 'lead')
        if (live && usable.length > 0) setProfiles(usable)
      })
      // The built-in profiles stay offered; the spawn itself reports what went wrong.
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [getProfiles, given])
  const tools = profiles.find((profile) => profile.name === value.profile)?.tools ?? []
  return (
    <div className="field-row">
      <Field id={ids.profile} label="Profile" hint={<>Tools: {tools.join(', ') || 'none'}</>}>
        <select
          id={ids.profile}
          value={value.profile}
          onChange={(event) => onChange({ ...value, profile: event.target.value })}
        >
          {profiles.map((profile) => (
            <option key={profile.name} value={profile.name}>
              {profile.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id={ids.approval} label="Approvals">
        <select
          id={ids.approval}
          value={value.approval ?? ''}
          onChange={(event) =>
            onChange({
              ...value,
              approval: event.target.value === '' ? null : (event.target.value as ApprovalMode),
            })
          }
        >
          <option value="">As the profile says</option>
          {APPROVAL_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {APPROVAL_WORDS[mode]}
            </option>
          ))}
        </select>
      </Field>
    </div>
  )
}
