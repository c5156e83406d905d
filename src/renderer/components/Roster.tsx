import { LEAD, USER } from '../../shared/names'
import { useAppStore } from '../store/context'
import type { AgentState } from '../store/state'
import { canRespawn } from '../store/ui'
import { describeTokens, formatTokens, initial } from './format'
import { StatusBadge, statusLook } from './status'

/** The team down the left side: the lead, every teammate, and the spawn button. */
export function Roster() {
  const order = useAppStore((state) => state.order)
  const teamName = useAppStore((state) => state.teamName)
  const openDialog = useAppStore((state) => state.openDialog)
  const count = order.filter((name) => name !== LEAD).length
  return (
    <aside className="roster" aria-label="Team">
      <div className="roster-header">
        <h2>Team</h2>
        <span className="muted small">
          {teamName ? `${teamName} · ` : ''}
          {count === 1 ? '1 teammate' : `${count} teammates`}
        </span>
      </div>
      <ul className="roster-list">
        {order.map((name, index) => (
          <RosterItem key={name} name={name} position={index + 1} />
        ))}
      </ul>
      {count === 0 ? (
        <p className="roster-empty muted small">
          No teammates yet. Spawn one, or ask the lead to put a team together.
        </p>
      ) : null}
      <div className="roster-footer">
        <button
          type="button"
          className="button button-primary button-block"
          onClick={() => openDialog({ kind: 'spawn', prefill: null })}
          title="Spawn a teammate (Ctrl+N)"
        >
          + Spawn teammate
        </button>
      </div>
    </aside>
  )
}

function RosterItem({ name, position }: { readonly name: string; readonly position: number }) {
  const agent = useAppStore((state) => state.agents[name])
  const selected = useAppStore((state) => state.selected === name && state.view !== 'activity')
  const select = useAppStore((state) => state.select)
  if (agent === undefined) return null
  const classes = ['roster-item', `roster-${agent.status}`, selected ? 'is-selected' : '']
  return (
    <li className={classes.join(' ')} data-testid={`roster-item-${name}`}>
      <button
        type="button"
        className="roster-open"
        aria-current={selected ? 'true' : undefined}
        aria-label={`Open ${name} (${agent.role}, ${statusLook(agent.status).label}${agent.pending > 0 ? `, ${agent.pending} unread` : ''})`}
        onClick={() => select(name, 'conversation')}
        title={position <= 9 ? `Open ${name} (Ctrl+${position})` : `Open ${name}`}
      >
        <span className={`avatar avatar-${agent.status}`} aria-hidden="true">
          {initial(name)}
        </span>
        <span className="roster-main">
          <span className="roster-line">
            <span className="roster-name">{name}</span>
            <span className="roster-role">{agent.role}</span>
          </span>
          <span className="roster-line">
            <StatusBadge name={name} status={agent.status} reason={agent.statusReason} />
            <span className="roster-tokens" title={describeTokens(agent.usage)}>
              {formatTokens(agent.usage)}
            </span>
          </span>
        </span>
        {agent.pending > 0 ? (
          <span
            className="unread-badge"
            data-testid={`unread-${name}`}
            title={`${agent.pending} unread message${agent.pending === 1 ? '' : 's'} in the inbox`}
          >
            {agent.pending}
            <span className="visually-hidden"> unread</span>
          </span>
        ) : null}
      </button>
      <StatusDetail agent={agent} />
      <ProtocolChips name={name} />
      <RosterActions agent={agent} />
    </li>
  )
}

function StatusDetail({ agent }: { readonly agent: AgentState }) {
  if (agent.status === 'error') {
    return (
      <p className="roster-reason roster-reason-error" role="status">
        {agent.failure?.message ?? agent.statusReason ?? 'stopped by an error'}
      </p>
    )
  }
  if ((agent.status === 'waiting' || agent.status === 'stalled') && agent.statusReason) {
    return <p className="roster-reason">{agent.statusReason}</p>
  }
  return null
}

function ProtocolChips({ name }: { readonly name: string }) {
  const protocols = useAppStore((state) => state.protocols)
  const open = Object.values(protocols).filter(
    (request) => request.status === 'pending' && (request.to === name || request.from === name),
  )
  if (open.length === 0) return null
  return (
    <div className="protocol-chips">
      {open.map((request) => (
        <span key={request.id} className="protocol-chip" title={request.plan ?? undefined}>
          {request.kind === 'shutdown'
            ? request.to === name
              ? `shutdown asked by ${request.from === USER ? 'you' : request.from}`
              : `asked ${request.to} to shut down`
            : request.from === name
              ? `plan awaits ${request.to}`
              : `plan from ${request.from} to review`}
        </span>
      ))}
    </div>
  )
}

function RosterActions({ agent }: { readonly agent: AgentState }) {
  const select = useAppStore((state) => state.select)
  const openDialog = useAppStore((state) => state.openDialog)
  const stopAgent = useAppStore((state) => state.stopAgent)
  const sendMessage = useAppStore((state) => state.sendMessage)
  const reportFailure = useAppStore((state) => state.reportFailure)
  const name = agent.name
  const isLead = name === LEAD
  return (
    <div className="roster-actions">
      <button type="button" className="link-button" onClick={() => select(name, 'inbox')}>
        Message
      </button>
      {agent.status === 'working' ? (
        <button
          type="button"
          className="link-button link-danger"
          onClick={() =>
            stopAgent(name).catch((error: unknown) =>
              reportFailure(`Could not stop ${name}`, error),
            )
          }
        >
          Stop
        </button>
      ) : null}
      {!isLead && agent.status !== 'shutdown' ? (
        <button
          type="button"
          className="link-button"
          title={`Ask ${name} to shut down (a shutdown_request message)`}
          onClick={() =>
            sendMessage({
              to: name,
              type: 'shutdown_request',
              content:
                'The person asks you to shut down. Answer with a shutdown_response whose request_id is the id of this message.',
            }).catch((error: unknown) => reportFailure(`Could not ask ${name} to shut down`, error))
          }
        >
          Shut down
        </button>
      ) : null}
      {!isLead && canRespawn(agent.status) ? (
        <button
          type="button"
          className="link-button"
          onClick={() =>
            openDialog({
              kind: 'spawn',
              prefill: { name, role: agent.role, model: agent.model },
            })
          }
        >
          Re-spawn
        </button>
      ) : null}
    </div>
  )
}
