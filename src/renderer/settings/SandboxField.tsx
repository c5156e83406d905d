import { useEffect, useId, useState } from 'react'
import type { SandboxStatus, SandboxView } from '../../shared/sandbox'
import { assertNever } from '../../shared/errors'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { Field } from '../ui/Field'
import { useCommand } from '../ui/useCommand'

function statusText(status: SandboxStatus): string {
  switch (status.available) {
    case true:
      return `On: bash runs in an OS sandbox (${status.mechanism === 'bubblewrap' ? 'bubblewrap' : 'macOS Seatbelt'}). Commands write only in their workspace and a private temporary folder, never in .team/, cannot read this app’s settings or key, and reach only the hosts below.`
    case false:
      return `Off: ${status.reason}`
    default:
      return assertNever(status, 'sandbox status')
  }
}

/** One host a line; blank lines and surrounding spaces dropped. */
function hostLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/**
 * bash's sandbox in the settings: whether it is on here, and the open team's network
 * allow-list, saved on its own (it belongs to the team, in `.team/sandbox.json`).
 */
export function SandboxField() {
  const getSandbox = useAppStore((state) => state.getSandbox)
  const [view, setView] = useState<SandboxView | null>(null)
  const load = useCommand(getSandbox)
  const { run } = load
  useEffect(() => {
    void run().then((outcome) => {
      if (outcome.ok) setView(outcome.value)
    })
  }, [run])
  return (
    <fieldset className="fieldset" aria-label="Sandbox for bash">
      <legend>Sandbox for bash</legend>
      {view === null ? (
        load.error === null ? (
          <p className="muted">Checking the sandbox…</p>
        ) : (
          <InlineError error={load.error} />
        )
      ) : (
        <>
          <p
            className={view.status.available ? 'key-state key-set' : 'key-state key-missing'}
            role="status"
          >
            <span className="key-dot" aria-hidden="true" />
            {statusText(view.status)}
          </p>
          {view.team === null ? (
            <p className="field-hint">Open a team to choose the hosts its commands may reach.</p>
          ) : (
            <AllowedHosts view={view} team={view.team} onSaved={setView} />
          )}
        </>
      )}
    </fieldset>
  )
}

function AllowedHosts({
  view,
  team,
  onSaved,
}: {
  readonly view: SandboxView
  readonly team: NonNullable<SandboxView['team']>
  readonly onSaved: (view: SandboxView) => void
}) {
  const setAllowedHosts = useAppStore((state) => state.setAllowedHosts)
  const save = useCommand(setAllowedHosts)
  const [text, setText] = useState(team.allowedHosts.join('\n'))
  const [saved, setSaved] = useState(false)
  const id = useId()
  const hosts = hostLines(text)
  const changed = hosts.join('\n') !== team.allowedHosts.join('\n')
  return (
    <Field
      id={id}
      label="Allowed hosts (one a line)"
      hint="Kept for this team in .team/sandbox.json. A command that tries another host is stopped and you are told."
      after={
        <>
          <InlineError error={save.error} />
          <div className="form-actions">
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                setText([...new Set([...hosts, ...view.preset])].join('\n'))
                setSaved(false)
              }}
            >
              Add package registries
            </button>
            <button
              type="button"
              className="button button-small button-primary"
              disabled={save.pending || !changed}
              onClick={() =>
                void save.run(hosts).then((outcome) => {
                  if (!outcome.ok) return
                  onSaved(outcome.value)
                  setText(outcome.value.team?.allowedHosts.join('\n') ?? '')
                  setSaved(true)
                })
              }
            >
              {save.pending ? 'Saving…' : 'Save allowed hosts'}
            </button>
            {saved && !changed ? <span className="muted">Saved.</span> : null}
          </div>
        </>
      }
    >
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        value={text}
        placeholder="None: commands have no network. For example registry.npmjs.org or *.example.com:443"
        onChange={(event) => {
          setText(event.target.value)
          setSaved(false)
        }}
      />
      {team.problem === null ? null : (
        <p className="storage-note" role="note">
          {team.problem}
        </p>
      )}
    </Field>
  )
}
