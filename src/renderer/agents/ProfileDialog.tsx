import { useEffect, useState } from 'react'
import { LEAD } from '../../shared/names'
import { own } from '../../shared/own'
import {
  BUILT_IN_PROFILES,
  DEFAULT_LEAD_PROFILE,
  DEFAULT_TEAMMATE_PROFILE,
  type ProfileView,
} from '../../shared/profiles'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { PermissionFields, type PermissionChoice } from './PermissionFields'
import { ProfileEditor } from './ProfileEditor'
import { useCommand } from '../ui/useCommand'

/**
 * Changes an agent's permission profile and approval mode (from its next tool call), and saves
 * a custom profile ("New profile…"), which is then offered and chosen here.
 */
export function ProfileDialog({ name }: { readonly name: string }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const setAgentProfile = useAppStore((state) => state.setAgentProfile)
  const getProfiles = useAppStore((state) => state.getProfiles)
  const agent = useAppStore((state) => own(state.agents, name))
  const isLead = name === LEAD
  const [initial] = useState<PermissionChoice>(() => ({
    profile: agent?.profile ?? (isLead ? DEFAULT_LEAD_PROFILE : DEFAULT_TEAMMATE_PROFILE),
    approval: agent?.approval ?? null,
  }))
  const [choice, setChoice] = useState(initial)
  const [profiles, setProfiles] = useState<readonly ProfileView[]>(() =>
    BUILT_IN_PROFILES.map((profile) => ({ ...profile, builtIn: true })),
  )
  const [problem, setProblem] = useState<string | null>(null)
  const [editing, setEditing] = useState(false)
  const load = useCommand(getProfiles)
  const save = useCommand(setAgentProfile)
  const loadProfiles = load.run

  useEffect(() => {
    void loadProfiles().then((outcome) => {
      if (!outcome.ok) return
      setProfiles(outcome.value.profiles)
      setProblem(outcome.value.problem)
    })
  }, [loadProfiles])

  // The lead profile is the lead's own; an agent's current profile stays listed even when the
  // team no longer defines it, so that the select shows what it has.
  const offered = profiles.filter((profile) => isLead || profile.name !== 'lead')
  const options = offered.some((profile) => profile.name === initial.profile)
    ? offered
    : [...offered, { name: initial.profile, tools: [] }]
  const who = isLead ? 'the lead' : name

  async function submit(): Promise<void> {
    if (save.pending) return
    const change = {
      ...(choice.profile === initial.profile ? {} : { profile: choice.profile }),
      ...(choice.approval === initial.approval ? {} : { approval: choice.approval }),
    }
    if (Object.keys(change).length === 0) {
      closeDialog()
      return
    }
    const outcome = await save.run({ name, ...change })
    if (outcome.ok) closeDialog()
  }

  if (agent === undefined) return null
  if (editing)
    return (
      <Dialog
        title="New profile"
        description="A custom profile is saved with the team (.team/profiles.json) and offered to every agent."
        onClose={closeDialog}
      >
        <ProfileEditor
          onCancel={() => setEditing(false)}
          onSaved={(saved, savedName) => {
            setProfiles(saved)
            setChoice((current) => ({ ...current, profile: savedName }))
            setEditing(false)
          }}
        />
      </Dialog>
    )
  return (
    <Dialog
      title={`Profile of ${who}`}
      description={`Which tools ${who} gets, and what waits for you; from ${who}’s next tool call.`}
      onClose={closeDialog}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <PermissionFields value={choice} onChange={setChoice} profiles={options} />
        {problem !== null ? (
          <p className="field-error" role="alert">
            Custom profiles are not available: {problem}
          </p>
        ) : null}
        <InlineError error={load.error ?? save.error} />
        <DialogFooter
          leading={
            <button type="button" className="button button-ghost" onClick={() => setEditing(true)}>
              New profile…
            </button>
          }
          cancel={{ label: 'Cancel', onClick: closeDialog }}
          action={{ label: 'Save', pending: save.pending, pendingLabel: 'Saving…' }}
        />
      </form>
    </Dialog>
  )
}
