import type { TeamEvent } from '../../shared/events'
import { LEAD, USER } from '../../shared/names'
import type { TeamAgent } from '../agents/team-agent'
import { mirrorEvent } from '../needs-you/mirror'
import type { NeedsYou } from '../needs-you/queue'
import type { TaskAutomation } from '../tasks/task-automation'
import type { Team } from '../team/team'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { TeamReactions } from '../reactions/team-reactions'

/** The parts of the host that react to the team's events. */
export interface RoutingParts {
  readonly team: Team
  readonly worktrees: TeamWorktrees
  readonly taskAutomation: TaskAutomation
  readonly needsYou: NeedsYou
  readonly reactions: TeamReactions
  /** Whether teammates' messages wake the lead (the person's always do). */
  readonly leadWakesOnMessages: boolean
  /**
   * Whether mail appended to an inbox from outside this process wakes its agent: not while the
   * workspace is untrusted (a cloned team's mail must not spend the person's key).
   */
  readonly outsideMailWakes: () => boolean
  readonly loadedAgent: (name: string) => TeamAgent | undefined
  readonly agent: (name: string) => TeamAgent
}

/**
 * What the host does with each event of its team: worktrees learn which turn changed what, the
 * task board and the Needs-you queue follow the agents, and mail wakes its recipient, whether
 * it was sent in this process or appended to the inbox by anyone and seen by the watcher.
 */
export function routeEvent(event: TeamEvent, parts: RoutingParts): void {
  if (event.type === 'tool-call-finished') parts.worktrees.touched(event.agent)
  else if (event.type === 'branches-changed') parts.worktrees.refsChanged()
  else if (event.type === 'tasks-changed') parts.worktrees.taskMarks.boardChanged(event.board.tasks)
  else if (event.type === 'agent-status-changed' && event.name !== LEAD) {
    // A turn that starts from rest: its "last turn" diff is taken from here.
    if (event.status === 'working' && event.previous !== 'waiting' && event.previous !== 'working')
      parts.worktrees.turnStarted(event.name)
    else parts.worktrees.touched(event.name)
  }
  parts.taskAutomation.handle(event)
  mirrorEvent(parts.needsYou, event)
  parts.reactions.handle(event)
  if (event.type === 'message-sent') mailArrived(parts, event.message.to, event.message.from)
  else if (event.type === 'inbox-changed' && event.change !== 'removed')
    mailArrived(parts, event.name, null)
}

function mailArrived(parts: RoutingParts, name: string, from: string | null): void {
  // Marked whether or not it wakes the agent: the mail is read at its next look either way.
  parts.loadedAgent(name)?.noteMail()
  if (from === null && !parts.outsideMailWakes()) return
  if (name === LEAD) {
    if (parts.leadWakesOnMessages || from === USER) parts.agent(LEAD).wake()
    return
  }
  const member = parts.team.roster.find(name)
  if (member && member.status !== 'shutdown') parts.agent(name).wake()
}
