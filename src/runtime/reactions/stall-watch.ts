import type { TeamEvent } from '../../shared/events'
import type { ReactionsConfig } from '../../shared/reactions'
import type { MemberStatus } from '../../shared/roster'
import type { Task } from '../../shared/tasks'

/** Why an agent was nudged: working without a word, or idle while it holds a task. */
export type NudgeReason = 'silent' | 'idle-task'

export interface Nudge {
  readonly agent: string
  readonly reason: NudgeReason
  /** The task it holds (idle-task). */
  readonly task: Pick<Task, 'id' | 'subject'> | null
}

export interface StallWatchDependencies {
  /** Milliseconds since the epoch (the host's clock). */
  readonly now: () => number
  /** The agents and their statuses now (the lead's too). */
  readonly statuses: () => ReadonlyMap<string, MemberStatus>
  /** The tasks in progress now. */
  readonly tasksInProgress: () => readonly Task[]
  /** Puts the nudge in the agent's inbox (and records it). */
  readonly nudge: (nudge: Nudge, config: ReactionsConfig) => void
  /** It did not move after the nudge: Needs-you, a notification, a record. */
  readonly escalate: (nudge: Nudge, config: ReactionsConfig) => void
  /** The agent moved after an escalation: its Needs-you entry is settled. */
  readonly settle: (agent: string) => void
}

interface Watch {
  /** When it last did something of its own (a turn's text, a tool call, a record, a status). */
  lastMove: number
  /** When its status last changed. */
  statusSince: number
  status: MemberStatus | null
  silent: { nudgedAt: number; escalated: boolean } | null
  idleTask: { taskId: string; nudgedAt: number; escalated: boolean } | null
}

/** Events that show an agent doing something of its own (mail to it is not its move). */
function moverOf(event: TeamEvent): string | null {
  switch (event.type) {
    case 'text-delta':
    case 'tool-call-started':
    case 'tool-input-delta':
    case 'tool-call-finished':
    case 'transcript-appended':
    case 'usage-reported':
      return event.agent
    case 'agent-status-changed':
      return event.name
    default:
      return null
  }
}

/**
 * Who has not moved. A working agent silent past `stall.after` gets a nudge; one idle past
 * `idle_task.after` while a task is in progress in its name gets one too. Past the escalation
 * delay after the nudge with no move (silent: nothing of its own; idle-task: the task still in
 * progress and the agent idle), it is escalated once. A stream stall (`stalled`) is the runtime's
 * own: it is in Needs-you at once (needs-you/mirror.ts), since no message reaches a stream that
 * hangs; this watch leaves it to that.
 */
export class StallWatch {
  private readonly watches = new Map<string, Watch>()

  constructor(private readonly deps: StallWatchDependencies) {}

  /** Follows the team's events: moves and statuses. */
  observe(event: TeamEvent): void {
    const agent = moverOf(event)
    if (agent === null) return
    const watch = this.watchOf(agent)
    const now = this.deps.now()
    watch.lastMove = now
    if (event.type === 'agent-status-changed' && event.status !== watch.status) {
      watch.status = event.status
      watch.statusSince = now
    }
    if (watch.silent !== null) {
      if (watch.silent.escalated) this.deps.settle(agent)
      watch.silent = null
    }
  }

  /** Looks at every agent now: nudges and escalations that are due. */
  tick(config: ReactionsConfig): void {
    const now = this.deps.now()
    const inProgress = this.deps.tasksInProgress()
    for (const [agent, status] of this.deps.statuses()) {
      const watch = this.watchOf(agent)
      if (watch.status !== status) {
        watch.status = status
        watch.statusSince = now
      }
      this.tickSilent(agent, watch, config, now)
      const task = inProgress.find((candidate) => candidate.owner === agent) ?? null
      this.tickIdleTask(agent, watch, task, config, now)
    }
  }

  private tickSilent(agent: string, watch: Watch, config: ReactionsConfig, now: number): void {
    if (!config.stall.on || watch.status !== 'working') return
    const nudge: Nudge = { agent, reason: 'silent', task: null }
    if (watch.silent === null) {
      if (now - watch.lastMove < config.stall.after_seconds * 1000) return
      watch.silent = { nudgedAt: now, escalated: false }
      this.deps.nudge(nudge, config)
      return
    }
    if (watch.silent.escalated) return
    if (now - watch.silent.nudgedAt < config.escalate_after_seconds * 1000) return
    watch.silent.escalated = true
    this.deps.escalate(nudge, config)
  }

  private tickIdleTask(
    agent: string,
    watch: Watch,
    task: Task | null,
    config: ReactionsConfig,
    now: number,
  ): void {
    const held = watch.idleTask
    if (held !== null && (task === null || task.id !== held.taskId)) {
      // The task moved (done, given back, another one): what was raised for it is settled.
      if (held.escalated) this.deps.settle(agent)
      watch.idleTask = null
    }
    if (!config.idle_task.on || task === null || watch.status !== 'idle') return
    const nudge: Nudge = {
      agent,
      reason: 'idle-task',
      task: { id: task.id, subject: task.subject },
    }
    if (watch.idleTask === null) {
      if (now - watch.statusSince < config.idle_task.after_seconds * 1000) return
      watch.idleTask = { taskId: task.id, nudgedAt: now, escalated: false }
      this.deps.nudge(nudge, config)
      return
    }
    if (watch.idleTask.escalated) return
    if (now - watch.idleTask.nudgedAt < config.escalate_after_seconds * 1000) return
    watch.idleTask.escalated = true
    this.deps.escalate(nudge, config)
  }

  private watchOf(agent: string): Watch {
    let watch = this.watches.get(agent)
    if (watch === undefined) {
      const now = this.deps.now()
      watch = { lastMove: now, statusSince: now, status: null, silent: null, idleTask: null }
      this.watches.set(agent, watch)
    }
    return watch
  }
}
