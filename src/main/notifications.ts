import type { HostEvent } from '../shared/contract'
import { LEAD } from '../shared/names'
import { isPause, type MemberStatus, type StatusCause } from '../shared/roster'

/** Why an agent needs the person; each one counts in the dock badge until it is settled. */
export type NeedKind = 'paused' | 'error' | 'stalled'

/** What the shell knows of the team, folded from its events; plain data, folded purely. */
export interface AttentionState {
  readonly statuses: Readonly<Record<string, MemberStatus>>
  /** Agents that need the person now, and why. */
  readonly needs: Readonly<Record<string, NeedKind>>
  /** Plans waiting for approval: request id → the teammate who asks. */
  readonly plans: Readonly<Record<string, string>>
  /** Tool approvals and questions in the Needs-you queue: entry id → the agent that waits. */
  readonly asks: Readonly<Record<string, string>>
}

export const emptyAttention: AttentionState = { statuses: {}, needs: {}, plans: {}, asks: {} }

/** A desktop notification to show; clicking it focuses the window on `agent`. */
export interface DesktopNotification {
  readonly title: string
  readonly body: string
  readonly agent: string
}

export interface Observed {
  readonly state: AttentionState
  readonly notifications: readonly DesktopNotification[]
}

/** Whether a status (with its cause) waits on the person rather than on time. */
function needOf(status: MemberStatus, cause: StatusCause | null): NeedKind | null {
  if (status === 'error') return 'error'
  if (status === 'stalled') return 'stalled'
  // A retry wait goes on by itself; a pause (budget, refused key) waits for the person.
  if (status === 'waiting' && isPause(cause)) return 'paused'
  return null
}

function needNotification(name: string, need: NeedKind, reason: string): DesktopNotification {
  const titles: Record<NeedKind, string> = {
    paused: `${name} is paused and needs you`,
    error: `${name} stopped on an error`,
    stalled: `${name} stalled: its model went silent`,
  }
  return { title: titles[need], body: reason, agent: name }
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const copy = { ...record }
  delete copy[key]
  return copy
}

type StatusChange = Extract<HostEvent, { type: 'agent-status-changed' }>
type ProtocolChange = Extract<HostEvent, { type: 'protocol-changed' }>
type QueueChange = Extract<HostEvent, { type: 'needs-you-changed' }>

/**
 * Whether an entry of the queue counts and notifies by itself: a tool call or a question that
 * holds its agent, or a reaction's escalation (a `stall` entry for an agent that did not move
 * after a nudge; a stream stall is already counted by its status).
 */
function asksThePerson(state: AttentionState, entry: QueueChange['entry']): boolean {
  if (entry.kind === 'tool' || entry.kind === 'question') return true
  return entry.kind === 'stall' && state.needs[entry.agent] !== 'stalled'
}

function askTitle(entry: QueueChange['entry']): string {
  if (entry.kind === 'tool') return `${entry.agent} asks to run ${entry.tool ?? 'a tool'}`
  if (entry.kind === 'question') return `${entry.agent} asks you a question`
  return `${entry.agent} has not moved since a nudge`
}

/** A tool call, a question or an escalation that waits until the person acts. */
function queueChanged(state: AttentionState, event: QueueChange): Observed {
  const entry = event.entry
  if (entry.status !== 'pending' && state.asks[entry.id] !== undefined)
    return { state: { ...state, asks: without(state.asks, entry.id) }, notifications: [] }
  if (!asksThePerson(state, entry)) return { state, notifications: [] }
  if (entry.status !== 'pending')
    return { state: { ...state, asks: without(state.asks, entry.id) }, notifications: [] }
  if (state.asks[entry.id] !== undefined) return { state, notifications: [] }
  const title = askTitle(entry)
  return {
    state: { ...state, asks: { ...state.asks, [entry.id]: entry.agent } },
    notifications: [
      {
        title,
        body: (entry.kind === 'stall' ? entry.detail : entry.summary).slice(0, 200),
        agent: entry.agent,
      },
    ],
  }
}

function statusChanged(state: AttentionState, event: StatusChange): Observed {
  const statuses = { ...state.statuses, [event.name]: event.status }
  const need = needOf(event.status, event.cause)
  const before = state.needs[event.name]
  const needs =
    need === null ? without(state.needs, event.name) : { ...state.needs, [event.name]: need }
  const notifications: DesktopNotification[] = []
  // Only on entering a need: a second event for the same state notifies no more.
  if (need !== null && need !== before)
    notifications.push(needNotification(event.name, need, event.reason))
  if (event.name === LEAD && event.previous === 'working' && event.status === 'idle')
    notifications.push({
      title: 'The lead replied',
      body: 'Its answer is in the chat.',
      agent: LEAD,
    })
  return { state: { ...state, statuses, needs }, notifications }
}

function protocolChanged(state: AttentionState, event: ProtocolChange): Observed {
  const request = event.request
  if (request.kind !== 'plan') return { state, notifications: [] }
  if (request.status !== 'pending')
    return { state: { ...state, plans: without(state.plans, request.id) }, notifications: [] }
  if (state.plans[request.id] !== undefined) return { state, notifications: [] }
  return {
    state: { ...state, plans: { ...state.plans, [request.id]: request.from } },
    notifications: [
      {
        title: `${request.from} asks you to approve a plan`,
        body: (request.plan ?? '').slice(0, 200),
        agent: request.from,
      },
    ],
  }
}

/** The team as a freshly opened workspace shows it: what waits already, without notifying. */
function opened(event: Extract<HostEvent, { type: 'workspace-opened' }>): AttentionState {
  const agents = [event.snapshot.lead, ...event.snapshot.members]
  const needs: Record<string, NeedKind> = {}
  for (const agent of agents) {
    const need = needOf(agent.status, agent.statusCause)
    if (need !== null) needs[agent.name] = need
  }
  const plans: Record<string, string> = {}
  for (const request of event.snapshot.requests)
    if (request.kind === 'plan' && request.status === 'pending') plans[request.id] = request.from
  const asks: Record<string, string> = {}
  for (const entry of event.snapshot.needsYou ?? [])
    if (entry.status === 'pending' && asksThePerson({ ...emptyAttention, needs }, entry))
      asks[entry.id] = entry.agent
  return {
    statuses: Object.fromEntries(agents.map((agent) => [agent.name, agent.status])),
    needs,
    plans,
    asks,
  }
}

/**
 * Folds one event into what waits on the person, and says which notifications it raises. The
 * state is always kept; `focused` only silences: a person looking at the window sees the
 * change there, and a notification for it would be noise.
 */
export function observe(
  state: AttentionState,
  event: HostEvent,
  options: { readonly focused: boolean },
): Observed {
  const observed = fold(state, event)
  return options.focused ? { state: observed.state, notifications: [] } : observed
}

function fold(state: AttentionState, event: HostEvent): Observed {
  switch (event.type) {
    case 'workspace-opened':
      return { state: opened(event), notifications: [] }
    case 'workspace-closed':
      return { state: emptyAttention, notifications: [] }
    case 'agent-status-changed':
      return statusChanged(state, event)
    case 'protocol-changed':
      return protocolChanged(state, event)
    case 'needs-you-changed':
      return queueChanged(state, event)
    default:
      return { state, notifications: [] }
  }
}

/**
 * The dock or taskbar badge: every agent that needs the person, every plan to approve, and every
 * tool call or question waiting in the Needs-you queue.
 */
export function badgeCount(state: AttentionState): number {
  return (
    Object.keys(state.needs).length +
    Object.keys(state.plans).length +
    Object.keys(state.asks).length
  )
}

/** Agents in the middle of work: closing the last window then asks first. */
export function workingAgents(state: AttentionState): string[] {
  return Object.entries(state.statuses)
    .filter(([, status]) => status === 'working')
    .map(([name]) => name)
}

/**
 * The question asked before quitting (every window's team) or closing one window (its team)
 * while agents work; null: go ahead without asking.
 */
export function quitQuestion(
  teams: readonly AttentionState[],
  action: 'quit' | 'close' = 'quit',
): { readonly message: string; readonly detail: string } | null {
  const working = teams.flatMap(workingAgents)
  if (working.length === 0) return null
  const who = working.length === 1 ? `${working[0]} is` : `${working.length} agents are`
  const ask = action === 'quit' ? 'Quit anyway?' : 'Close the window anyway?'
  const what = action === 'quit' ? 'Quitting' : 'Closing the window'
  return {
    message: `${who} still working. ${ask}`,
    detail: `${what} stops them where they are; their transcripts are kept, and they can go on when you open the folder again.`,
  }
}
