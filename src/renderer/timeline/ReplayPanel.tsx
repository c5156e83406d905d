import { memo, useSyncExternalStore } from 'react'
import './replay.css'
import { MEMBER_STATUSES, type MemberStatus } from '../../shared/roster'
import { COLUMNS } from '../board/board-model'
import { StatusBadge } from '../ui/status'
import { formatSeconds } from '../ui/format'
import { REPLAY_SPEEDS, type ReplayClock, type ReplaySpeed } from './replay-clock'
import type { ActivityLine, ReplayCursor, ReplayFrame, ReplayTask } from './replay-model'
import { KIND_LABELS, laneLabel } from './timeline-model'
import { MARKS, MarkIcon } from './marks'

interface ReplayPanelProps {
  readonly clock: ReplayClock
  readonly cursor: ReplayCursor
  readonly span: { readonly start: number; readonly end: number }
  readonly lanes: readonly string[]
  readonly onExit: () => void
}

/**
 * Replay: a scrubber over the run and playback at 1× to 100×, with the roster, the board and
 * each agent's activity as they were at the moment shown. It reads only the timeline's entries.
 */
export function ReplayPanel({ clock, cursor, span, lanes, onExit }: ReplayPanelProps) {
  const { at, playing, speed } = useSyncExternalStore(clock.subscribe, clock.get)
  const frame = cursor.seek(at)
  const length = Math.max(span.end - span.start, 0.001)
  return (
    <section className="replay" aria-label="Replay" data-testid="replay">
      <div className="replay-banner" role="status">
        <strong>Replay of the past</strong>
        <span>
          the team as it was at <time data-testid="replay-time">{formatSeconds(at)}</time> ·{' '}
          {frame.applied} entries in
        </span>
        <button type="button" className="button button-small" onClick={onExit}>
          Exit replay
        </button>
      </div>
      <div className="replay-controls">
        <button
          type="button"
          className="button button-primary button-small replay-play"
          onClick={() => (playing ? clock.pause() : clock.play())}
          aria-pressed={playing}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <label className="replay-speed">
          <span className="visually-hidden">Speed</span>
          <select
            value={speed}
            aria-label="Speed"
            onChange={(event) => clock.setSpeed(Number(event.target.value) as ReplaySpeed)}
          >
            {REPLAY_SPEEDS.map((value) => (
              <option key={value} value={value}>
                {value}×
              </option>
            ))}
          </select>
        </label>
        <input
          type="range"
          className="replay-scrubber"
          aria-label="Moment of the replay"
          aria-valuetext={formatSeconds(at)}
          min={0}
          max={1000}
          step={1}
          value={Math.round(((at - span.start) / length) * 1000)}
          onChange={(event) => {
            clock.pause()
            clock.seek(span.start + (Number(event.target.value) / 1000) * length)
          }}
        />
        <span className="muted small replay-ends">
          {formatSeconds(span.start)} – {formatSeconds(span.end)}
        </span>
      </div>
      <div className="replay-panes">
        <ReplayRoster lanes={lanes} statuses={frame.statuses} busy={frame.busy} />
        <ReplayBoard tasks={frame.tasks} />
        <ReplayActivity lanes={lanes} activity={frame.activity} />
      </div>
    </section>
  )
}

function isMemberStatus(status: string): status is MemberStatus {
  return (MEMBER_STATUSES as readonly string[]).includes(status)
}

/** The roster then; a row renders again only when its agent's status or doing changed. */
function ReplayRoster({
  lanes,
  statuses,
  busy,
}: {
  readonly lanes: readonly string[]
  readonly statuses: ReplayFrame['statuses']
  readonly busy: ReplayFrame['busy']
}) {
  return (
    <div className="replay-pane" role="region" aria-label="Roster then">
      <h3 className="replay-pane-title">Roster</h3>
      <ul className="replay-roster">
        {lanes.map((name) => (
          <ReplayMember key={name} name={name} status={statuses[name]} doing={busy[name]} />
        ))}
      </ul>
    </div>
  )
}

const ReplayMember = memo(function ReplayMember({
  name,
  status,
  doing,
}: {
  readonly name: string
  readonly status: string | undefined
  readonly doing: ActivityLine | undefined
}) {
  return (
    <li className="replay-member" data-testid={`replay-member-${name}`}>
      <span className="replay-member-name">{laneLabel(name)}</span>
      {status === undefined ? (
        <span className="muted small" data-status="none">
          not started
        </span>
      ) : isMemberStatus(status) ? (
        <StatusBadge name={`replay-${name}`} status={status} cause={null} reason={null} />
      ) : (
        <span className="small" data-status={status}>
          {status}
        </span>
      )}
      {doing === undefined ? null : (
        <span className="replay-doing muted small" title={doing.summary}>
          {doing.summary}
        </span>
      )}
    </li>
  )
})

const ReplayBoard = memo(function ReplayBoard({
  tasks,
}: {
  readonly tasks: readonly ReplayTask[]
}) {
  return (
    <div className="replay-pane replay-board" role="region" aria-label="Board then">
      <h3 className="replay-pane-title">Board</h3>
      <div className="replay-columns">
        {COLUMNS.map((column) => {
          const inColumn = tasks.filter((task) => task.status === column.status)
          return (
            <div
              key={column.status}
              className="replay-column"
              data-testid={`replay-column-${column.status}`}
            >
              <h4 className="replay-column-title">
                {column.title} <span className="muted">{inColumn.length}</span>
              </h4>
              <ul>
                {inColumn.map((task) => (
                  <li key={task.id} className="replay-task" data-testid={`replay-task-${task.id}`}>
                    <span className="muted">#{task.id}</span> {task.subject}
                    {task.owner === null ? null : (
                      <span className="muted small"> · {laneLabel(task.owner)}</span>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )
        })}
      </div>
    </div>
  )
})

/** Each agent's latest activity then; an agent's list renders again only when it changed. */
function ReplayActivity({
  lanes,
  activity,
}: {
  readonly lanes: readonly string[]
  readonly activity: ReplayFrame['activity']
}) {
  const active = lanes.filter((name) => (activity[name]?.length ?? 0) > 0)
  return (
    <div className="replay-pane replay-activity" role="region" aria-label="Activity then">
      <h3 className="replay-pane-title">Activity</h3>
      {active.length === 0 ? <p className="muted small">Nothing yet.</p> : null}
      {active.map((name) => (
        <AgentActivity key={name} name={name} lines={activity[name] ?? []} />
      ))}
    </div>
  )
}

const AgentActivity = memo(function AgentActivity({
  name,
  lines,
}: {
  readonly name: string
  readonly lines: readonly ActivityLine[]
}) {
  return (
    <div className="replay-agent-activity">
      <h4 className="replay-column-title">{laneLabel(name)}</h4>
      <ul>
        {lines.map((line) => (
          <ActivityRow key={line.id} line={line} />
        ))}
      </ul>
    </div>
  )
})

function ActivityRow({ line }: { readonly line: ActivityLine }) {
  return (
    <li className={line.failed ? 'replay-line is-failed' : 'replay-line'}>
      <MarkIcon mark={MARKS[line.kind]} failed={line.failed} size={12} />
      <span className="visually-hidden">{KIND_LABELS[line.kind]}: </span>
      <span className="replay-line-text" title={line.summary}>
        {line.summary}
      </span>
    </li>
  )
}
