import { Suspense } from 'react'
import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import { isTeamView, type MainView } from '../store/ui'
import { ActivityPanes } from '../activity/ActivityPanes'
import { Conversation } from '../chat/Conversation'
import { AgentControls } from '../agents/AgentControls'
import { AgentModelButton } from '../agents/ModelDialog'
import { InboxView } from '../inbox/InboxView'
import { pendingCount } from '../store/needs-you'
import { StatusBadge } from '../ui/status'
import { own } from '../../shared/own'
import { AwayDigestHost } from '../timeline/AwayDigest'

// The views not shown at start are chunks of their own, loaded when first shown.
import { ChangesView, NeedsYouView, TaskBoardView, TimelineView } from './lazy'

/** The main area: the selected agent's conversation or inbox, or the team's activity panes. */
export function MainArea() {
  const view = useAppStore((state) => state.view)
  const selected = useAppStore((state) => state.selected)
  return (
    <main className="main" aria-label="Main">
      <ViewTabs view={view} selected={selected} />
      <AwayDigestHost />
      <div className="main-content">
        <Suspense fallback={<p className="muted">Loading…</p>}>
          {view === 'needs-you' ? (
            <NeedsYouView />
          ) : view === 'activity' ? (
            <ActivityPanes />
          ) : view === 'board' ? (
            <TaskBoardView />
          ) : view === 'timeline' ? (
            <TimelineView />
          ) : view === 'inbox' ? (
            <InboxView key={selected} name={selected} />
          ) : view === 'changes' && selected !== LEAD ? (
            <ChangesView key={selected} name={selected} />
          ) : (
            <Conversation key={selected} name={selected} />
          )}
        </Suspense>
      </div>
    </main>
  )
}

const TEAM_VIEW_TITLES: Partial<Record<MainView, string>> = {
  board: 'Task board',
  timeline: 'Timeline',
}

function ViewTabs({ view, selected }: { readonly view: MainView; readonly selected: string }) {
  const agent = useAppStore((state) => own(state.agents, selected))
  const select = useAppStore((state) => state.select)
  const showView = useAppStore((state) => state.showView)
  const working = useAppStore(
    (state) => state.order.filter((name) => own(state.agents, name)?.status === 'working').length,
  )
  const waiting = useAppStore((state) => pendingCount(state.needsYou))
  const tab = (target: MainView, label: string, title: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={view === target}
      className={view === target ? 'tab is-active' : 'tab'}
      onClick={() => (isTeamView(target) ? showView(target) : select(selected, target))}
      title={title}
    >
      {label}
    </button>
  )
  return (
    <div className="view-bar">
      {view === 'needs-you' ? (
        <div className="view-agent">
          <h1 className="view-title">Needs you</h1>
          <span className="view-role">{waiting} waiting, across the team</span>
        </div>
      ) : !isTeamView(view) && agent !== undefined ? (
        <div className="view-agent">
          <h1 className="view-title">{selected === LEAD ? 'Lead' : selected}</h1>
          <span className="view-role">
            {selected === LEAD ? 'your chat with the lead' : agent.role}
          </span>
          <StatusBadge
            name={`${selected}-header`}
            status={agent.status}
            cause={agent.statusCause}
            reason={agent.statusReason}
          />
          <AgentModelButton agent={agent} />
          <AgentControls agent={agent} />
        </div>
      ) : (
        <div className="view-agent">
          <h1 className="view-title">{TEAM_VIEW_TITLES[view] ?? 'Team activity'}</h1>
          <span className="view-role">{working} working</span>
        </div>
      )}
      <div className="tabs" role="tablist" aria-label="Views">
        {tab(
          'conversation',
          selected === LEAD ? 'Chat' : 'Transcript',
          'The conversation (Ctrl+K)',
        )}
        {tab(
          'inbox',
          agent !== undefined && agent.pending > 0 ? `Inbox (${agent.pending})` : 'Inbox',
          'Inbox (Ctrl+I)',
        )}
        {selected !== LEAD && agent !== undefined
          ? tab('changes', 'Changes', 'Its changes in its own worktree: diff, comment, merge')
          : null}
        {tab('activity', 'Activity', 'Activity panes (Ctrl+Shift+A)')}
        {tab('board', 'Board', 'The task board')}
        {tab(
          'timeline',
          'Timeline',
          'Everything the team did, in order, and its replay (Ctrl+Shift+L)',
        )}
        {tab(
          'needs-you',
          waiting > 0 ? `Needs you (${waiting})` : 'Needs you',
          'Everything that waits on you: approvals, questions, plans, pauses',
        )}
      </div>
    </div>
  )
}
