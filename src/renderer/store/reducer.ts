import { NO_USAGE } from '../../shared/usage'
import type { HostEvent, TeamSnapshot } from '../../shared/contract'
import { engineOf } from '../../shared/engine'
import { assertNever } from '../../shared/errors'
import { modelChoiceOf, type ModelChoice } from '../../shared/model-choice'
import { LEAD } from '../../shared/names'
import { approvalModeSchema, DEFAULT_TEAMMATE_PROFILE } from '../../shared/profiles'
import { addModelUsage } from '../../shared/cost'
import { addNotice } from './notices'
import { changeProtocol } from './protocols'
import {
  agentFromView,
  initialTeamData,
  noBudget,
  type AgentState,
  type InboxState,
  type TeamData,
} from './state'
import {
  appendText,
  appendTranscriptRecord,
  discardStream,
  finishTool,
  settleLive,
  startTool,
  streamToolInput,
} from './reducer-stream'
import { own } from '../../shared/own'
import { budgetChanged } from './budgets'
import { addsTimelineRecords } from '../timeline/timeline-events'

type EventOf<T extends HostEvent['type']> = Extract<HostEvent, { type: T }>

/**
 * The one fold from the host's events to the window's data. Pure: the same state and events
 * always give the same result, and nothing here touches the API, the DOM or a clock. A batch
 * (≤ one per animation frame) is folded whole, so the store applies it in one `set()`.
 */
export function reduceEvents(state: TeamData, events: readonly HostEvent[]): TeamData {
  let next = state
  for (const event of events) next = reduceEvent(next, event)
  if (events.some(addsTimelineRecords))
    next = { ...next, timelineVersion: next.timelineVersion + 1 }
  return next
}

export function reduceEvent(state: TeamData, event: HostEvent): TeamData {
  switch (event.type) {
    case 'workspace-opened':
      return openWorkspace(state, event.snapshot)
    case 'settings-changed':
      return { ...state, settings: event.settings }
    case 'agent-status-changed':
      return changeStatus(state, event)
    case 'roster-changed':
      return changeRoster(state, event)
    case 'roster-invalid':
      return {
        ...state,
        rosterProblem: {
          message: event.message,
          file: event.file,
          line: event.line,
          column: event.column,
        },
      }
    case 'inbox-changed':
      return inboxChanged(state, event)
    case 'budget-changed':
      return budgetChanged(state, event.name, event.budget)
    case 'message-sent':
      return messageSent(state, event)
    case 'message-delivered':
      return messagesDelivered(state, event)
    case 'message-rejected':
      return messageRejected(state, event)
    case 'text-delta':
      return appendText(state, event.agent, event.text)
    case 'tool-call-started':
      return startTool(state, event.agent, event.id, event.name)
    case 'tool-input-delta':
      return streamToolInput(state, event.agent, event.id, event.partial_json)
    case 'tool-call-finished':
      return finishTool(state, event.agent, event.id, event.name, event.content, event.is_error)
    case 'transcript-appended':
      return appendTranscriptRecord(state, event.agent, event.record)
    case 'usage-reported':
      // One report per model call: what a round budget counts.
      return updateAgent(state, event.agent, (agent) => ({
        ...agent,
        usage: event.total,
        usageByModel: addModelUsage(agent.usageByModel, event.model, event.usage),
        rounds: agent.rounds + 1,
      }))
    case 'agent-error':
      return updateAgent(state, event.agent, (agent) => ({
        ...agent,
        failure: { code: event.code, message: event.message },
        statusReason: event.message,
      }))
    case 'stream-reset':
      return discardStream(state, event.agent)
    case 'team-alert':
      return { ...state, alert: { code: event.code, message: event.message } }
    case 'team-alert-cleared':
      return state.alert?.code === event.code ? { ...state, alert: null } : state
    case 'protocol-changed':
      return changeProtocol(state, event.request)
    case 'tasks-changed':
      return { ...state, tasks: event.board }
    case 'task-auto-claimed':
      return addNotice(state, {
        tone: 'info',
        title: `${event.agent} took task #${event.task}`,
        message: `${event.agent} claimed "${event.subject}" from the board by itself (auto-claim).`,
      })
    case 'mcp-changed':
      return state.workspace === null ? state : { ...state, mcp: event.state }
    case 'trust-changed':
      return state.workspace === null ? state : { ...state, trust: event.trust }
    case 'needs-you-changed':
      return { ...state, needsYou: { ...state.needsYou, [event.entry.id]: event.entry } }
    case 'branches-changed':
      return { ...state, branchesVersion: state.branchesVersion + 1 }
    case 'reactions-changed':
      return state.workspace === null ? state : { ...state, reactions: event.reactions }
    case 'workspace-closed':
      return closeWorkspace(state)
    case 'desktop-notice':
      return addNotice(state, { tone: event.tone, title: event.title, message: event.message })
    case 'menu-command':
      // An action, not data: the store runs it after folding (see menu-commands.ts).
      return state
    default:
      return assertNever(event, 'host event')
  }
}

/** The team is closed: the window keeps the settings and banners, forgets the team. */
function closeWorkspace(state: TeamData): TeamData {
  return {
    ...initialTeamData,
    info: state.info === null ? null : { ...state.info, workspace: null, offline: false },
    settings: state.settings,
    notices: state.notices,
    nextNoticeId: state.nextNoticeId,
  }
}

function openWorkspace(state: TeamData, snapshot: TeamSnapshot): TeamData {
  const views = [snapshot.lead, ...snapshot.members]
  const agents: Record<string, AgentState> = {}
  for (const view of views) agents[view.name] = agentFromView(view)
  return {
    ...state,
    info:
      state.info === null
        ? null
        : { ...state.info, workspace: snapshot.workspace, offline: snapshot.offline },
    workspace: snapshot.workspace,
    teamName: snapshot.teamName,
    agents,
    order: views.map((view) => view.name),
    rosterProblem: snapshot.rosterProblem,
    alert: snapshot.alert,
    offline: snapshot.offline,
    defaultModel: snapshot.defaultModel,
    teamBudget: snapshot.teamBudget,
    mcp: snapshot.mcp,
    trust: snapshot.trust ?? null,
    protocols: Object.fromEntries(snapshot.requests.map((request) => [request.id, request])),
    needsYou: Object.fromEntries((snapshot.needsYou ?? []).map((entry) => [entry.id, entry])),
    sentReviews: {},
    live: {},
    transcripts: {},
    inboxes: {},
    tasks: snapshot.tasks ?? { tasks: [], problems: [] },
  }
}

function changeStatus(state: TeamData, event: EventOf<'agent-status-changed'>): TeamData {
  const updated = updateAgent(state, event.name, (agent) => ({
    ...agent,
    status: event.status,
    statusReason: event.reason,
    statusCause: event.cause,
    running: event.status === 'working',
    failure: failureAfter(agent, event),
  }))
  return event.status === 'working' ? updated : settleLive(updated, event.name)
}

function failureAfter(
  agent: AgentState,
  event: EventOf<'agent-status-changed'>,
): AgentState['failure'] {
  if (event.status === 'working') return null
  if (event.status === 'error')
    return agent.failure ?? { code: event.error_code ?? 'error', message: event.reason }
  return agent.failure
}

function changeRoster(state: TeamData, event: EventOf<'roster-changed'>): TeamData {
  const agents: Record<string, AgentState> = {}
  const lead = own(state.agents, LEAD)
  if (lead !== undefined) agents[LEAD] = withChoice(lead, modelChoiceOf(event.lead))
  for (const member of event.members) {
    const existing = own(state.agents, member.name)
    const { model, thinking } = modelChoiceOf(member)
    agents[member.name] =
      existing === undefined
        ? {
            name: member.name,
            role: member.role,
            status: member.status,
            statusReason: null,
            statusCause: null,
            running: member.status === 'working',
            usage: NO_USAGE,
            usageByModel: [],
            model,
            thinking,
            pending: 0,
            rounds: 0,
            budget: noBudget,
            failure: null,
            ...permissionOf(member, undefined),
            engine: engineOf(member),
          }
        : unlessSame(existing, {
            ...existing,
            role: member.role,
            status: member.status,
            running: member.status === 'working',
            model,
            thinking,
            ...permissionOf(member, existing),
            engine: engineOf(member),
          })
  }
  const order = [
    ...(lead === undefined ? [] : [LEAD]),
    ...event.members.map((member) => member.name),
  ]
  // A roster change touches one member at most: what did not change keeps its object, so that
  // the roster rows and activity panes of a large team do not all render again.
  return {
    ...state,
    teamName: event.team_name,
    agents: unlessSame(state.agents, agents),
    order: sameItems(state.order, order) ? state.order : order,
    rosterProblem: null,
  }
}

/** `next`, or `previous` when every field holds the same value. */
function unlessSame<T extends object>(previous: T, next: T): T {
  const keys = Object.keys(next) as (keyof T)[]
  return keys.length === Object.keys(previous).length &&
    keys.every((key) => Object.hasOwn(previous, key) && previous[key] === next[key])
    ? previous
    : next
}

function sameItems(previous: readonly string[], next: readonly string[]): boolean {
  return previous.length === next.length && previous.every((item, index) => item === next[index])
}

/**
 * A member's profile and approval mode as config.json holds them. A mode it does not hold comes
 * from the profile, which only the host knows: kept while the profile stays, else unknown.
 */
function permissionOf(
  member: EventOf<'roster-changed'>['members'][number],
  existing: AgentState | undefined,
): Pick<AgentState, 'profile' | 'approval'> {
  const profile = typeof member.profile === 'string' ? member.profile : DEFAULT_TEAMMATE_PROFILE
  const own = approvalModeSchema.safeParse(member['approval'])
  const approval = own.success
    ? own.data
    : member['plan_first'] === true
      ? 'plan-first'
      : existing?.profile === profile
        ? existing.approval
        : null
  return { profile, approval }
}

/** The agent with its model and thinking as config.json holds them (the same object if so). */
function withChoice(agent: AgentState, choice: ModelChoice): AgentState {
  return agent.model === choice.model && agent.thinking === choice.thinking
    ? agent
    : { ...agent, ...choice }
}

/** The runtime counted what is pending after the change: the count is the event's. */
function inboxChanged(state: TeamData, event: EventOf<'inbox-changed'>): TeamData {
  const counted =
    own(state.agents, event.name)?.pending === event.pending
      ? state
      : updateAgent(state, event.name, (agent) => ({ ...agent, pending: event.pending }))
  return updateInbox(counted, event.name, (inbox) => ({ ...inbox, stale: true }))
}

/** Shown in the open inbox at its next read; the count comes with the `inbox-changed` after it. */
function messageSent(state: TeamData, event: EventOf<'message-sent'>): TeamData {
  return updateInbox(state, event.message.to, (inbox) => ({ ...inbox, stale: true }))
}

function messagesDelivered(state: TeamData, event: EventOf<'message-delivered'>): TeamData {
  const ids = new Set(event.ids)
  return updateInbox(state, event.agent, (inbox) => {
    let marked = 0
    const entries = inbox.entries.map((entry) => {
      if (entry.id === null || !ids.has(entry.id)) return entry
      marked++
      return entry.state === 'pending' ? { ...entry, state: 'delivered' as const } : entry
    })
    // A delivered line not shown yet may be on its way in a read that started before the
    // delivery, still pending there: read again once that read is in.
    return { ...inbox, entries, stale: inbox.stale || marked < ids.size }
  })
}

function messageRejected(state: TeamData, event: EventOf<'message-rejected'>): TeamData {
  const { segment, offset } = event.position
  const marked = updateInbox(state, event.inbox, (inbox) => ({
    ...inbox,
    stale: true,
    entries: inbox.entries.map((entry) =>
      entry.position.segment === segment && entry.position.offset === offset
        ? { ...entry, state: 'rejected', reason: event.reason }
        : entry,
    ),
  }))
  const group = `rejected:${event.inbox}`
  const count = (state.notices.find((notice) => notice.group === group)?.count ?? 0) + 1
  return addNotice(marked, {
    tone: 'error',
    title:
      count === 1
        ? `A line in ${event.inbox}'s inbox was rejected`
        : `${count} lines in ${event.inbox}'s inbox were rejected`,
    message: count === 1 ? event.reason : `The last one: ${event.reason}`,
    group,
  })
}

export function updateAgent(
  state: TeamData,
  name: string,
  change: (agent: AgentState) => AgentState,
): TeamData {
  const agent = own(state.agents, name)
  if (agent === undefined) return state
  return { ...state, agents: { ...state.agents, [name]: change(agent) } }
}

export function updateInbox(
  state: TeamData,
  name: string,
  change: (inbox: InboxState) => InboxState,
): TeamData {
  const inbox = own(state.inboxes, name)
  if (inbox === undefined) return state
  return { ...state, inboxes: { ...state.inboxes, [name]: change(inbox) } }
}
