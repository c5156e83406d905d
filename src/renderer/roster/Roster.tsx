import { memo, useState, useSyncExternalStore } from 'react'
import { assertNever } from '../../shared/errors'
import { totalTokens } from '../../shared/usage'
import { LEAD, USER } from '../../shared/names'
import { isBudgetPause, pauseReason } from '../store/budgets'
import { useAppStore } from '../store/context'
import { latestPlanOf, latestShutdownOf, pendingPlans } from '../store/protocols'
import type { AgentState, ProtocolRequest } from '../store/state'
import { describeModel } from '../agents/ModelFields'
import {
  describeSpend,
  formatCostSpend,
  formatSpend,
  formatSpendCompact,
  initial,
} from '../ui/format'
import { useCost } from '../ui/useCost'
import { teamCost } from '../store/costs'
import { badgeLook, StatusBadge } from '../ui/status'
import { RosterProfile } from './RosterProfile'
import { otherEngine, RosterEngine } from './RosterEngine'
import { own } from '../../shared/own'
import { RosterActions } from './RosterActions'
import { SandboxNotice } from '../settings/SandboxNotice'
import { TeamControls } from './TeamControls'
import { RosterBranch, WorktreesProvider } from './RosterBranch'
import { isTeamView } from '../store/ui'
import { RosterTask } from './RosterTask'
import { matchesRosterFilter, RosterFilter } from './RosterFilter'
import { densityController, resolveDensity } from './roster-density'

/** The team down the left side: the lead, every teammate, and the spawn button. */
export function Roster() {
  const order = useAppStore((state) => state.order)
  const teamName = useAppStore((state) => state.teamName)
  const openDialog = useAppStore((state) => state.openDialog)
  const density = densityController()
  const choice = useSyncExternalStore(density.subscribe, density.get, density.get)
  const [query, setQuery] = useState('')
  // A string, so that the list renders again only when who matches changed.
  const shown = useAppStore((state) =>
    state.order
      .filter((name) => {
        const agent = own(state.agents, name)
        return agent !== undefined && matchesRosterFilter(agent, query)
      })
      .join('\n'),
  )
  const visible = new Set(shown === '' ? [] : shown.split('\n'))
  const count = order.filter((name) => name !== LEAD).length
  const compact = resolveDensity(choice, order.length) === 'compact'
  return (
    <aside className={compact ? 'roster roster-compact' : 'roster'} aria-label="Team">
      <div className="roster-header">
        <h2>Team</h2>
        <span className="muted small">
          {teamName ? `${teamName} · ` : ''}
          {count === 1 ? '1 teammate' : `${count} teammates`}
        </span>
      </div>
      <TeamControls />
      <TeamBudgetLine />
      <SandboxNotice />
      <RosterFilter query={query} onChange={setQuery} searchable={count > 0} />
      <WorktreesProvider>
        <ul className="roster-list">
          {order.map((name, index) =>
            visible.has(name) ? (
              <RosterItem key={name} name={name} position={index + 1} compact={compact} />
            ) : null,
          )}
        </ul>
      </WorktreesProvider>
      {visible.size === 0 && query.trim() !== '' ? (
        <p className="roster-empty muted small" role="status">
          No one on the team matches “{query.trim()}”. Press Escape to see everyone.
        </p>
      ) : null}
      {count === 0 ? (
        <p className="roster-empty muted small">
          No teammates yet. Spawn one, apply a template, or ask the lead to put a team together.
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
        <button
          type="button"
          className="button button-ghost button-block"
          onClick={() => openDialog({ kind: 'templates' })}
          title="Save this team as a template, or start a saved one"
        >
          Templates…
        </button>
        <button
          type="button"
          className="button button-ghost button-block"
          onClick={() => openDialog({ kind: 'schedules' })}
          title="Runs of the team at set times, each with a hard cap"
        >
          Schedules…
        </button>
      </div>
    </aside>
  )
}

/** The team's spend, against its budget when it has one; opens the team budget. */
function TeamBudgetLine() {
  const budget = useAppStore((state) => state.teamBudget)
  const tokens = useAppStore((state) =>
    state.order.reduce((sum, name) => {
      const usage = own(state.agents, name)?.usage
      return sum + (usage === undefined ? 0 : totalTokens(usage))
    }, 0),
  )
  const rounds = useAppStore((state) =>
    state.order.reduce((sum, name) => sum + (own(state.agents, name)?.rounds ?? 0), 0),
  )
  // A string, so that the roster renders again only when what it shows changed.
  const cost = useAppStore((state) => formatCostSpend(teamCost(state), state.teamBudget.usd))
  const openDialog = useAppStore((state) => state.openDialog)
  const limited = budget.tokens !== null || budget.rounds !== null || budget.usd !== null
  // Shown from the start, at zero: a line that appeared with the first tokens moved every row
  // of the roster down, under the cursor of someone about to click.
  return (
    <button
      type="button"
      className="team-budget"
      data-testid="team-spend"
      title={`${limited ? "The team's budget" : "The team's spend"}: all agents together (click to set a budget)`}
      onClick={() => openDialog({ kind: 'budget', name: null })}
    >
      <span className="team-budget-label">{limited ? 'Team budget' : 'Team spend'}</span>
      <span>{formatSpend(tokens, budget.tokens, 'token')}</span>
      <span>{formatSpend(rounds, budget.rounds, 'round')}</span>
      <span>{cost}</span>
    </button>
  )
}

/*
 * Memoized: a spawn changes the team's order, and with it the list; the rows of the others
 * (a subtree each) render again only when their own agent changed.
 */
const RosterItem = memo(function RosterItem({
  name,
  position,
  compact,
}: {
  readonly name: string
  readonly position: number
  readonly compact: boolean
}) {
  const agent = useAppStore((state) => own(state.agents, name))
  const selected = useAppStore((state) => state.selected === name && !isTeamView(state.view))
  const select = useAppStore((state) => state.select)
  if (agent === undefined) return null
  return (
    <RosterEntry
      agent={agent}
      selected={selected}
      select={select}
      position={position}
      compact={compact}
    />
  )
})

function RosterEntry({
  agent,
  selected,
  select,
  position,
  compact,
}: {
  readonly agent: AgentState
  readonly selected: boolean
  readonly select: (name: string, view: 'conversation') => void
  readonly position: number
  /** One line: name, role, status, unread; the selected row adds its details and actions. */
  readonly compact: boolean
}) {
  const name = agent.name
  const cost = useCost(agent.usageByModel)
  const engine = otherEngine(agent)
  const classes = ['roster-item', `roster-${agent.status}`, selected ? 'is-selected' : '']
  return (
    <li className={classes.join(' ')} data-testid={`roster-item-${name}`}>
      <button
        type="button"
        className="roster-open"
        aria-current={selected ? 'true' : undefined}
        aria-label={`Open ${name} (${agent.role}${engine === null ? '' : `, ${engine}`}, ${badgeLook(agent.status, agent.statusCause).label}${agent.pending > 0 ? `, ${agent.pending} unread` : ''})`}
        onClick={() => select(name, 'conversation')}
        title={position <= 9 ? `Open ${name} (Ctrl+${position})` : `Open ${name}`}
      >
        <span className={`avatar avatar-${agent.status}`} aria-hidden="true">
          {initial(name)}
        </span>
        <span className="roster-main">
          <span className="roster-line">
            <span className="roster-name">{name}</span>
            <span className="roster-role" title={agent.role}>
              {agent.role}
            </span>
            <RosterEngine agent={agent} />
          </span>
          {compact ? null : <RosterModel agent={agent} />}
          {compact ? null : <RosterProfile agent={agent} />}
          <span className="roster-line">
            <StatusBadge
              name={name}
              status={agent.status}
              cause={agent.statusCause}
              reason={agent.statusReason}
            />
            {compact ? null : (
              <span className="roster-tokens" title={describeSpend(agent.usage, cost)}>
                {formatSpendCompact(agent.usage, cost)}
              </span>
            )}
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
      {compact ? null : <RosterBranch name={name} />}
      {compact && !selected ? null : <StatusDetail agent={agent} />}
      {compact ? null : <RosterTask name={name} />}
      {compact && !selected ? null : <ProtocolChips agent={agent} />}
      {compact && !selected ? null : <RosterActions agent={agent} />}
    </li>
  )
}

/** Its model (its own, or the team's, shown muted) and whether it thinks. */
function RosterModel({ agent }: { readonly agent: AgentState }) {
  const defaultModel = useAppStore((state) => state.defaultModel)
  const text = describeModel(agent, defaultModel)
  const chosen = agent.model !== null
  return (
    <span
      className={chosen ? 'roster-model' : 'roster-model roster-model-default'}
      data-testid={`roster-model-${agent.name}`}
      title={chosen ? `Model: ${text}` : `Model: ${text} (the team's model)`}
    >
      {text}
    </span>
  )
}

function StatusDetail({ agent }: { readonly agent: AgentState }) {
  const openDialog = useAppStore((state) => state.openDialog)
  const alert = useAppStore((state) => state.alert)
  // The team banner says it in full, once; the roster only points there.
  if (stoppedByAlert(agent, alert)) {
    return (
      <p className={`roster-reason${agent.status === 'error' ? ' roster-reason-error' : ''}`}>
        Stopped by the team alert above
      </p>
    )
  }
  if (agent.status === 'error') {
    return (
      <p className="roster-reason roster-reason-error" role="status">
        {agent.failure?.message ?? agent.statusReason ?? 'stopped by an error'}
      </p>
    )
  }
  if (isBudgetPause(agent)) {
    return (
      <p className="roster-reason roster-reason-paused">
        <span>{pauseReason(agent)}</span>{' '}
        <button
          type="button"
          className="link-button link-inline"
          onClick={() => openDialog({ kind: 'budget', name: agent.name })}
        >
          Set budget…
        </button>
      </p>
    )
  }
  if ((agent.status === 'waiting' || agent.status === 'stalled') && agent.statusReason) {
    return <p className="roster-reason">{pauseReason(agent) ?? agent.statusReason}</p>
  }
  return null
}

/**
 * Whether the team alert is what holds the agent: the alert of a refused key (`auth`, the only
 * one that stops agents) is up, and that refusal ended the agent in error or paused it.
 */
function stoppedByAlert(agent: AgentState, alert: { readonly code: string } | null): boolean {
  if (alert?.code !== 'auth') return false
  return (
    agent.failure?.code === 'auth' || (agent.status === 'waiting' && agent.statusCause === 'auth')
  )
}

/** The handshakes that concern this member, each a chip that opens where it is answered. */
function ProtocolChips({ agent }: { readonly agent: AgentState }) {
  const protocols = useAppStore((state) => state.protocols)
  const sentReviews = useAppStore((state) => state.sentReviews)
  const select = useAppStore((state) => state.select)
  const name = agent.name
  const chips: { key: string; text: string; tone: 'waiting' | 'declined'; title?: string }[] = []
  if (name === LEAD) {
    const plans = pendingPlans(protocols).filter((plan) => own(sentReviews, plan.id) === undefined)
    if (plans.length > 0)
      chips.push({
        key: 'plans',
        tone: 'waiting',
        text: plans.length === 1 ? '1 plan to review' : `${plans.length} plans to review`,
      })
  } else {
    const plan = latestPlanOf(protocols, name)
    if (plan?.status === 'pending')
      chips.push({
        key: plan.id,
        tone: 'waiting',
        text:
          own(sentReviews, plan.id) === undefined
            ? 'Plan waiting for approval'
            : `Plan ${own(sentReviews, plan.id)?.approve === true ? 'approved' : 'rejected'}, not read yet`,
        title: plan.plan ?? undefined,
      })
    const shutdown = latestShutdownOf(protocols, name)
    if (shutdown !== null && agent.status !== 'shutdown') {
      const chip = shutdownChip(shutdown)
      if (chip !== null) chips.push({ key: shutdown.id, ...chip })
    }
  }
  if (chips.length === 0) return null
  return (
    <div className="protocol-chips">
      {chips.map((chip) => (
        <button
          type="button"
          key={chip.key}
          className={`protocol-chip protocol-chip-${chip.tone}`}
          title={chip.title}
          onClick={() => select(name, 'conversation')}
        >
          {chip.text}
        </button>
      ))}
    </div>
  )
}

function shutdownChip(
  request: ProtocolRequest,
): { text: string; tone: 'waiting' | 'declined' } | null {
  const by = request.from === USER ? 'you' : request.from
  switch (request.status) {
    case 'pending':
      return { tone: 'waiting', text: `Shutdown requested by ${by} · awaiting its answer` }
    case 'approved':
      return { tone: 'waiting', text: 'Shutting down after this step' }
    case 'rejected':
      return {
        tone: 'declined',
        text: `Declined to shut down${request.reason ? `: ${request.reason}` : ''}`,
      }
    default:
      return assertNever(request.status, 'request status')
  }
}
