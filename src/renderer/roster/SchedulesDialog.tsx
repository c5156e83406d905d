import { useState } from 'react'
import { describeCaps, describeWhen, type ScheduleView } from '../../shared/schedules'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { formatSeconds, isoFromSeconds } from '../ui/format'
import { useCommand } from '../ui/useCommand'
import { useListing } from '../ui/useListing'
import { ScheduleForm } from './ScheduleForm'

/** How often an open dialog reads the schedules again (a run starts or ends by itself). */
const REFRESH_MS = 3000

/**
 * Scheduled runs of the team: each with its next run and its last run's outcome, run now, on
 * and off, removed; and a form for a new one. Runs happen in this app (or `serve`) while the
 * workspace is trusted, one at a time, each stopped at its cap.
 */
export function SchedulesDialog() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const listSchedules = useAppStore((state) => state.listSchedules)
  const { listing, refresh, command: list } = useListing(listSchedules, REFRESH_MS)
  const [notice, setNotice] = useState<string | null>(null)
  const [adding, setAdding] = useState(false)

  const done = (message: string): void => {
    setNotice(message)
    setAdding(false)
    void refresh()
  }

  return (
    <Dialog
      title="Scheduled runs"
      description="A scheduled run sends its prompt to the lead at the times it gives, while this app (or agent-teams serve) has the team open. Every run stops the team when it reaches its cap."
      onClose={closeDialog}
      wide
    >
      <InlineError error={list.error} />
      {notice !== null ? (
        <p className="small" role="status">
          {notice}
        </p>
      ) : null}
      {listing?.problem != null ? (
        <p className="inline-error small" role="alert">
          {listing.problem}
        </p>
      ) : null}
      {listing !== null && !listing.trusted ? (
        <p className="inline-error small" role="alert">
          This workspace is not trusted yet: no schedule runs until you trust it.
        </p>
      ) : null}
      {listing === null ? <p className="muted small">Loading…</p> : null}
      {listing !== null && listing.schedules.length === 0 && listing.problem === null ? (
        <p className="muted small">No schedules yet.</p>
      ) : null}
      <ul className="schedule-list" aria-label="Schedules">
        {listing?.schedules.map((view) => (
          <ScheduleItem key={view.schedule.name} view={view} onDone={done} />
        ))}
      </ul>
      {adding ? (
        <ScheduleForm onDone={done} onCancel={() => setAdding(false)} />
      ) : (
        <button
          type="button"
          className="button button-primary button-small"
          disabled={listing?.problem != null}
          onClick={() => setAdding(true)}
        >
          + New schedule
        </button>
      )}
    </Dialog>
  )
}

const STATE_WORDS: Record<ScheduleView['state'], string> = {
  idle: '',
  running: 'running now',
  waiting: 'waiting for the run before it',
}

function ScheduleItem({
  view,
  onDone,
}: {
  readonly view: ScheduleView
  readonly onDone: (message: string) => void
}) {
  const { schedule } = view
  const runScheduleNow = useAppStore((state) => state.runScheduleNow)
  const removeSchedule = useAppStore((state) => state.removeSchedule)
  const setScheduleEnabled = useAppStore((state) => state.setScheduleEnabled)
  const runNow = useCommand(runScheduleNow)
  const remove = useCommand(removeSchedule)
  const toggle = useCommand(setScheduleEnabled)
  const [confirming, setConfirming] = useState(false)

  async function runIt(): Promise<void> {
    const outcome = await runNow.run(schedule.name)
    if (!outcome.ok) return
    const words = {
      started: `Started ${schedule.name}: its prompt went to the lead.`,
      waiting: `${schedule.name} waits for the run that is working.`,
      skipped: `${schedule.name} was skipped: another run is working, and it is set to skip.`,
    }
    onDone(words[outcome.value.outcome])
  }
  async function removeIt(): Promise<void> {
    const outcome = await remove.run(schedule.name)
    if (outcome.ok) onDone(`Removed the schedule ${schedule.name}.`)
  }
  async function toggleIt(): Promise<void> {
    const outcome = await toggle.run(schedule.name, !schedule.enabled)
    if (outcome.ok)
      onDone(`${schedule.enabled ? 'Turned off' : 'Turned on'} the schedule ${schedule.name}.`)
  }

  const last = view.last_run
  return (
    <li className="schedule-item" data-testid={`schedule-${schedule.name}`}>
      <div className="schedule-item-head">
        <strong>{schedule.name}</strong>
        <span className="muted small">{describeWhen(schedule.when)}</span>
        {schedule.enabled ? null : <span className="schedule-badge">off</span>}
        {view.state === 'idle' ? null : (
          <span className="schedule-badge schedule-badge-live">{STATE_WORDS[view.state]}</span>
        )}
      </div>
      <p className="schedule-prompt small">{schedule.prompt}</p>
      <dl className="schedule-facts small">
        <dt>Next run</dt>
        <dd>
          {view.next_run === null ? (
            'none'
          ) : (
            <time dateTime={isoFromSeconds(view.next_run)}>{formatSeconds(view.next_run)}</time>
          )}
        </dd>
        <dt>Last run</dt>
        <dd data-testid={`schedule-${schedule.name}-last`}>
          {last === null ? (
            'never'
          ) : (
            <>
              <span className={`schedule-outcome schedule-outcome-${last.event}`}>
                {last.event}
              </span>{' '}
              <time dateTime={isoFromSeconds(last.at)}>{formatSeconds(last.at)}</time>
              <span className="muted"> · {last.summary}</span>
            </>
          )}
        </dd>
        <dt>Cap</dt>
        <dd>
          {describeCaps(schedule.caps)} a run · missed runs: {schedule.missed} · if busy:{' '}
          {schedule.overlap}
          {schedule.template === null ? '' : ` · template ${schedule.template}`}
        </dd>
      </dl>
      <InlineError error={runNow.error ?? remove.error ?? toggle.error} />
      <div className="template-item-actions">
        <button
          type="button"
          className="button button-primary button-small"
          disabled={runNow.pending}
          onClick={() => void runIt()}
        >
          Run now
        </button>
        <button
          type="button"
          className="button button-ghost button-small"
          disabled={toggle.pending}
          onClick={() => void toggleIt()}
        >
          {schedule.enabled ? 'Turn off' : 'Turn on'}
        </button>
        {confirming ? (
          <button
            type="button"
            className="button button-danger button-small"
            onClick={() => void removeIt()}
          >
            Remove {schedule.name} for good
          </button>
        ) : (
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        )}
      </div>
    </li>
  )
}
