import { useId, useState } from 'react'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'
import { useWorktreeDefaults } from '../roster/RosterBranch'

/**
 * The spawn dialog's "own git worktree" checkbox: on by default in a git repository (unless
 * the team turned it off), and a note instead where the folder is not a git repository.
 * `value` null means "the team's default".
 */
export function WorktreeField({
  name,
  value,
  onChange,
}: {
  readonly name: string
  readonly value: boolean | null
  readonly onChange: (value: boolean | null) => void
}) {
  const defaults = useWorktreeDefaults()
  const setWorktreeDefault = useAppStore((state) => state.setWorktreeDefault)
  const change = useCommand(setWorktreeDefault)
  const [defaultOn, setDefaultOn] = useState<boolean | null>(null)
  const id = useId()
  if (defaults === null) return null
  if (!defaults.available)
    return (
      <p className="field-note" data-testid="worktree-note">
        This folder is not a git repository (with a commit): teammates work in it together. Run{' '}
        <code>git init</code> and commit to give each one a worktree of its own.
      </p>
    )
  const teamDefault = defaultOn ?? defaults.defaultOn
  const checked = value ?? teamDefault
  const branch = `team/${name === '' ? '<name>' : name}`
  return (
    <div className="field">
      <label className="toggle" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(event) =>
            onChange(event.target.checked === teamDefault ? null : event.target.checked)
          }
        />
        <span className="toggle-text">
          <span>Own git worktree</span>
          <span className="field-hint">
            {checked
              ? `It works on the branch ${branch} in a folder of its own; you review and merge its changes. A re-spawn keeps it.`
              : 'It works in this folder, beside you and the others.'}
          </span>
        </span>
      </label>
      <button
        type="button"
        className="link-button small"
        onClick={() =>
          void change
            .run({ on: !teamDefault })
            .then((outcome) => outcome.ok && setDefaultOn(!teamDefault))
        }
      >
        {teamDefault
          ? 'Turn worktrees off by default for this team'
          : 'Turn worktrees on by default for this team'}
      </button>
      <InlineError error={change.error} />
    </div>
  )
}
