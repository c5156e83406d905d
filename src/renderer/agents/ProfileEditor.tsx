import { useId, useState } from 'react'
import {
  APPROVAL_MODES,
  PROFILE_NAME_RULE,
  PROFILE_TOOLS,
  profileNameSchema,
  type ApprovalMode,
  type ProfileTool,
  type ProfileView,
} from '../../shared/profiles'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { APPROVAL_WORDS } from './PermissionFields'
import { useCommand } from '../ui/useCommand'

/**
 * A custom permission profile, saved in the team's `.team/profiles.json`: its name, what it is
 * for, the tools it grants, the approval mode of the agents that have it, and whether they get
 * the team's MCP tools. Saving a name that exists replaces that profile.
 */
export function ProfileEditor({
  onSaved,
  onCancel,
}: {
  /** Every profile after the save, and the saved one's name. */
  readonly onSaved: (profiles: readonly ProfileView[], saved: string) => void
  readonly onCancel: () => void
}) {
  const ids = { name: useId(), description: useId(), approval: useId(), rule: useId() }
  const saveProfile = useAppStore((state) => state.saveProfile)
  const command = useCommand(saveProfile)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [tools, setTools] = useState<ReadonlySet<ProfileTool>>(
    () => new Set<ProfileTool>(['read_file', 'grep', 'glob', 'send_message', 'ask_user']),
  )
  const [approval, setApproval] = useState<ApprovalMode>('ask')
  const [mcp, setMcp] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const trimmed = name.trim()
  const nameProblem =
    trimmed === ''
      ? 'Give the profile a name.'
      : profileNameSchema.safeParse(trimmed).success
        ? null
        : `"${trimmed}" is not a profile name: ${PROFILE_NAME_RULE}.`
  const showNameProblem = nameProblem !== null && (submitted || trimmed !== '')

  async function submit(): Promise<void> {
    setSubmitted(true)
    if (nameProblem !== null || command.pending) return
    const outcome = await command.run({
      name: trimmed,
      description: description.trim(),
      // In the order the app lists them, whatever order they were ticked in.
      tools: PROFILE_TOOLS.filter((tool) => tools.has(tool)),
      approval,
      mcp,
    })
    if (outcome.ok) onSaved(outcome.value.profiles, trimmed)
  }

  const toggle = (tool: ProfileTool, on: boolean): void =>
    setTools((current) => {
      const next = new Set(current)
      if (on) next.add(tool)
      else next.delete(tool)
      return next
    })

  return (
    <form
      className="form"
      aria-label="New profile"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <Field
        id={ids.name}
        label="Name"
        messageId={ids.rule}
        announce
        hint={<>Rule: {PROFILE_NAME_RULE}</>}
        error={showNameProblem ? nameProblem : null}
      >
        <input
          id={ids.name}
          value={name}
          autoFocus
          spellCheck={false}
          aria-invalid={showNameProblem}
          aria-describedby={ids.rule}
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Field id={ids.description} label="Description">
        <input
          id={ids.description}
          value={description}
          maxLength={500}
          placeholder="What an agent with this profile is for"
          onChange={(event) => setDescription(event.target.value)}
        />
      </Field>
      <fieldset className="fieldset profile-tools">
        <legend>Tools</legend>
        {PROFILE_TOOLS.map((tool) => (
          <label key={tool} className="toggle">
            <input
              type="checkbox"
              checked={tools.has(tool)}
              onChange={(event) => toggle(tool, event.target.checked)}
            />
            <code>{tool}</code>
          </label>
        ))}
        <span className="field-hint">
          The inbox, the shutdown and plan handshakes and the task board are always given.
        </span>
      </fieldset>
      <Field id={ids.approval} label="Approvals">
        <select
          id={ids.approval}
          value={approval}
          onChange={(event) => setApproval(event.target.value as ApprovalMode)}
        >
          {APPROVAL_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {APPROVAL_WORDS[mode]}
            </option>
          ))}
        </select>
      </Field>
      <label className="toggle">
        <input type="checkbox" checked={mcp} onChange={(event) => setMcp(event.target.checked)} />
        MCP tools: the team’s MCP servers act outside the workspace
      </label>
      <InlineError error={command.error} />
      <DialogFooter
        cancel={{ label: 'Back', onClick: onCancel }}
        action={{ label: 'Save profile', pending: command.pending, pendingLabel: 'Saving…' }}
      />
    </form>
  )
}
