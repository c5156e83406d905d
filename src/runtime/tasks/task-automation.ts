import type { TeamEvent, TeamEventOf } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import { LEAD } from '../../shared/names'
import type { MemberStatus } from '../../shared/roster'
import { autoClaimCandidates, autoClaimTurn } from './auto-claim'
import type { TeamTasks } from './team-tasks'

/** Who gives an auto-claimed task, in the teammate's transcript. */
export const TASK_BOARD_SENDER = 'task-board'

export interface TaskAutomationDependencies {
  readonly tasks: TeamTasks
  readonly members: () => readonly { name: string; role: string; status: MemberStatus }[]
  /** Whether the member has auto-claim on (config.json's `auto_claim`). */
  readonly autoClaims: (name: string) => boolean
  readonly send: (request: { from: string; to: string; content: string }) => MailMessage
  readonly publish: (event: TeamEvent) => void
  /** Starts the teammate on a task (a new turn). */
  readonly giveTask: (name: string, text: string) => void
}

/**
 * What the runtime does with the board by itself: an agent that stops, fails or shuts down gives
 * its in-progress task back (so no task is stranded), and an idle teammate with auto-claim on
 * takes the next task that fits it, and tells the lead.
 */
export class TaskAutomation {
  private readonly waiting = new Set<string>()
  /** Teammates the person stopped: no auto-claim restarts them until they work again. */
  private readonly stopped = new Set<string>()
  private pending: NodeJS.Immediate | null = null
  private closed = false

  constructor(private readonly deps: TaskAutomationDependencies) {}

  /**
   * At open, no agent of an earlier run is running (the app quit, or was killed): every task the
   * team's agents held in progress goes back to pending. Owners that are not agents of this team
   * (another program's claims) keep theirs.
   */
  releaseAtOpen(isAgent: (name: string) => boolean): void {
    this.deps.tasks.release(
      (owner) => isAgent(owner),
      (owner) => `${owner} was not running when the team opened (a restart)`,
    )
  }

  handle(event: TeamEvent): void {
    if (this.closed) return
    if (event.type === 'agent-status-changed') {
      if (event.status === 'working') this.stopped.delete(event.name)
      if (event.status === 'idle' && event.cause === 'stopped') this.stopped.add(event.name)
      const reason = releaseReason(event)
      if (reason !== null)
        this.deps.tasks.release(
          (owner) => owner === event.name,
          () => reason,
        )
      else if (event.status === 'idle') this.schedule([event.name])
    } else if (event.type === 'tasks-changed' || event.type === 'roster-changed') {
      this.schedule(
        this.deps
          .members()
          .filter((member) => member.status === 'idle')
          .map((member) => member.name),
      )
    }
  }

  close(): void {
    this.closed = true
    if (this.pending) clearImmediate(this.pending)
    this.pending = null
  }

  /** Auto-claims run after the event that asked for them, never inside its dispatch. */
  private schedule(names: readonly string[]): void {
    const wanted = names.filter((name) => name !== LEAD && this.deps.autoClaims(name))
    if (wanted.length === 0) return
    for (const name of wanted) this.waiting.add(name)
    this.pending ??= setImmediate(() => {
      this.pending = null
      const names = [...this.waiting]
      this.waiting.clear()
      for (const name of names) this.autoClaim(name)
    })
  }

  private autoClaim(name: string): void {
    if (this.closed || this.stopped.has(name) || !this.deps.autoClaims(name)) return
    const member = this.deps.members().find((candidate) => candidate.name === name)
    if (member?.status !== 'idle') return
    const board = this.deps.tasks.view()
    if (board.tasks.some((task) => task.status === 'in_progress' && task.owner === name)) return
    for (const candidate of autoClaimCandidates(name, member.role, board.tasks)) {
      const outcome = this.deps.tasks.claim(candidate.id, name)
      if (!outcome.ok) continue
      const task = outcome.task
      this.deps.publish({
        type: 'task-auto-claimed',
        agent: name,
        task: task.id,
        subject: task.subject,
      })
      const message = this.deps.send({
        from: name,
        to: LEAD,
        content: `I claimed task #${task.id} from the board (auto-claim): ${task.subject}`,
      })
      this.deps.tasks.link(task.id, name, {
        kind: 'message',
        id: message.id,
        summary: `${name} → lead: ${message.content}`.slice(0, 500),
      })
      this.deps.giveTask(name, autoClaimTurn(task))
      return
    }
  }
}

/** Why an agent's status gives its task back, or null when it keeps it. */
function releaseReason(event: TeamEventOf<'agent-status-changed'>): string | null {
  const { name, status, reason } = event
  if (status === 'error') return `${name} failed (${reason.slice(0, 200)})`
  if (status === 'shutdown') return `${name} shut down`
  if (status === 'idle' && event.cause === 'stopped') return `${name} was stopped`
  return null
}

/** Whether a roster member has auto-claim on: config.json's `auto_claim: true`, nothing else. */
export function autoClaimOf(member: Readonly<Record<string, unknown>> | undefined): boolean {
  return member?.['auto_claim'] === true
}
