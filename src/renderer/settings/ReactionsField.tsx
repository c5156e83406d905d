import { useEffect, useId, useState } from 'react'
import { formatDuration, parseDuration } from '../../shared/duration'
import {
  type ReactionsChange,
  type ReactionsConfig,
  type ReactionsView,
} from '../../shared/reactions'
import { REACTION_KINDS } from '../../shared/unattended-log'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'

interface Draft {
  command: string
  timeout: string
  stallOn: boolean
  stallAfter: string
  idleOn: boolean
  idleAfter: string
  escalate: string
  conflicts: boolean
}

function draftOf(config: ReactionsConfig): Draft {
  return {
    command: config.check?.command ?? '',
    timeout: formatDuration(config.check?.timeout_seconds ?? 600),
    stallOn: config.stall.on,
    stallAfter: formatDuration(config.stall.after_seconds),
    idleOn: config.idle_task.on,
    idleAfter: formatDuration(config.idle_task.after_seconds),
    escalate: formatDuration(config.escalate_after_seconds),
    conflicts: config.conflicts,
  }
}

/** The whole change the draft asks for, or the first field that is not a duration. */
function changeOf(draft: Draft): { change: ReactionsChange } | { error: string } {
  const durations = {
    'The check timeout': draft.timeout,
    'The stall delay': draft.stallAfter,
    'The idle delay': draft.idleAfter,
    'The escalation delay': draft.escalate,
  }
  const seconds: Record<string, number> = {}
  for (const [label, text] of Object.entries(durations)) {
    const value = parseDuration(text)
    if (value === null) return { error: `${label} is a duration such as 90s, 10m or 1h.` }
    seconds[label] = value
  }
  const command = draft.command.trim()
  return {
    change: {
      check:
        command === '' ? null : { command, timeout_seconds: seconds['The check timeout'] ?? 600 },
      stall: { on: draft.stallOn, after_seconds: seconds['The stall delay'] ?? 600 },
      idle_task: { on: draft.idleOn, after_seconds: seconds['The idle delay'] ?? 600 },
      escalate_after_seconds: seconds['The escalation delay'] ?? 600,
      conflicts: draft.conflicts,
    },
  }
}

/**
 * The open team's reactions in the settings (`.team/reactions.json`), saved on their own as the
 * allowed hosts are: the check command after each teammate commit, the nudges and their
 * escalation, merge conflicts to their owners; with how many of each the team had.
 */
export function ReactionsField() {
  const getReactions = useAppStore((state) => state.getReactions)
  const view = useAppStore((state) => state.reactions)
  const load = useCommand(getReactions)
  const { run } = load
  // Kept here: a save brings a new view, which gives the form a fresh start (its key).
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    void run()
  }, [run])
  return (
    <fieldset className="fieldset reactions" aria-label="Reactions">
      <legend>Reactions</legend>
      {view === null ? (
        load.error === null ? (
          <p className="muted">Reading the reactions…</p>
        ) : (
          <InlineError error={load.error} />
        )
      ) : (
        <ReactionsForm
          key={JSON.stringify(view.config)}
          view={view}
          saved={saved}
          onSaved={setSaved}
        />
      )}
    </fieldset>
  )
}

function ReactionsForm({
  view,
  saved,
  onSaved,
}: {
  readonly view: ReactionsView
  readonly saved: boolean
  readonly onSaved: (saved: boolean) => void
}) {
  const setReactions = useAppStore((state) => state.setReactions)
  const save = useCommand(setReactions)
  const [draft, setDraft] = useState<Draft>(() => draftOf(view.config))
  const [problem, setProblem] = useState<string | null>(null)
  const ids = {
    command: useId(),
    timeout: useId(),
    stall: useId(),
    stallAfter: useId(),
    idle: useId(),
    idleAfter: useId(),
    escalate: useId(),
    conflicts: useId(),
  }
  const edit = (change: Partial<Draft>): void => {
    setDraft((current) => ({ ...current, ...change }))
    onSaved(false)
  }
  return (
    <>
      <p className={view.trusted ? 'key-state key-set' : 'key-state key-missing'} role="status">
        <span className="key-dot" aria-hidden="true" />
        {view.trusted
          ? 'They run while this team is open.'
          : 'They do not run until you trust this workspace.'}
      </p>
      {view.problem === null ? null : (
        <p className="storage-note" role="note">
          {view.problem}
        </p>
      )}
      <p className="muted reactions-counts" data-testid="reaction-counts">
        So far: {REACTION_KINDS.map((kind) => `${kind} ${view.counts[kind]}`).join(' · ')}
        {view.unreadable_lines > 0 ? ` (${view.unreadable_lines} unreadable lines)` : ''}
      </p>
      {view.checks.length === 0 ? null : (
        <ul className="reactions-checks">
          {view.checks.map((check) => (
            <li key={check.agent} className={`reactions-check reactions-check-${check.state}`}>
              <strong>{check.agent}</strong>: {check.summary} on {check.commit?.slice(0, 9) ?? '?'}
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={ids.command} className="reactions-command-label">
        Check command
      </label>
      <div className="reactions-grid">
        <input
          id={ids.command}
          type="text"
          spellCheck={false}
          placeholder="None. For example: npm test"
          value={draft.command}
          onChange={(event) => edit({ command: event.target.value })}
        />
        <Duration
          id={ids.timeout}
          label="killed after"
          value={draft.timeout}
          onChange={(timeout) => edit({ timeout })}
        />
        <Toggle
          id={ids.stall}
          checked={draft.stallOn}
          onChange={(stallOn) => edit({ stallOn })}
          label="Nudge an agent working without a word"
        />
        <Duration
          id={ids.stallAfter}
          value={draft.stallAfter}
          disabled={!draft.stallOn}
          onChange={(stallAfter) => edit({ stallAfter })}
        />
        <Toggle
          id={ids.idle}
          checked={draft.idleOn}
          onChange={(idleOn) => edit({ idleOn })}
          label="Nudge an agent idle with a task in progress"
        />
        <Duration
          id={ids.idleAfter}
          value={draft.idleAfter}
          disabled={!draft.idleOn}
          onChange={(idleAfter) => edit({ idleAfter })}
        />
        <span>No move after a nudge: Needs-you and a notification</span>
        <Duration
          id={ids.escalate}
          value={draft.escalate}
          onChange={(escalate) => edit({ escalate })}
        />
        <Toggle
          id={ids.conflicts}
          checked={draft.conflicts}
          onChange={(conflicts) => edit({ conflicts })}
          label="Send a merge conflict to the branch owner"
        />
      </div>
      <p className="field-hint">
        Kept for this team in .team/reactions.json. The check runs in the teammate’s sandbox, in its
        worktree, after each of its commits; a failure goes to its inbox with the end of the output.
      </p>
      {problem === null ? null : <p className="field-error">{problem}</p>}
      <InlineError error={save.error} />
      <div className="form-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={save.pending}
          onClick={() => {
            const result = changeOf(draft)
            if ('error' in result) {
              setProblem(result.error)
              return
            }
            setProblem(null)
            void save.run(result.change).then((outcome) => onSaved(outcome.ok))
          }}
        >
          {save.pending ? 'Saving…' : 'Save reactions'}
        </button>
        {saved ? <span className="muted">Saved.</span> : null}
      </div>
    </>
  )
}

/** A checkbox with its words, in the grid's first column. */
function Toggle(props: {
  readonly id: string
  readonly checked: boolean
  readonly onChange: (checked: boolean) => void
  readonly label: string
}) {
  return (
    <label htmlFor={props.id}>
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
      />{' '}
      {props.label}
    </label>
  )
}

/** "after [10m]": a duration as typed (read with parseDuration on save), in the grid's last two columns. */
function Duration(props: {
  readonly id: string
  readonly label?: string
  readonly value: string
  readonly disabled?: boolean
  readonly onChange: (value: string) => void
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label ?? 'after'}</label>
      <input
        id={props.id}
        className="reactions-duration"
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </>
  )
}
