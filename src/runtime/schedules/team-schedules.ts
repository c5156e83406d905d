import type { Disposable } from '../../shared/disposable'
import { agentErrorEvent } from '../../shared/events'
import { LEAD } from '../../shared/names'
import type { PriceOverrides } from '../../shared/prices'
import type { ScheduleListing } from '../../shared/schedules'
import type { TeamTemplate } from '../../shared/templates'
import type { NeedsYou } from '../needs-you/queue'
import type { Clock, IdSource } from '../system/clock'
import type { Team } from '../team/team'
import type { WorkspaceTrust } from '../trust/workspace-trust'
import { Scheduler, type RunOutcome } from './scheduler'
import { scheduleListing } from './schedule-views'
import { systemTimers, type Timers } from './timers'

/**
 * How a host runs schedules: given by the processes that stay up with a team (the window's app
 * and `serve`); a host opened without it (`chat`, `team apply`) runs none.
 */
export interface HostScheduleOptions {
  /** A saved or built-in template by name (throws `not-found`). */
  readonly template: (name: string) => TeamTemplate
  /** Default: the process's timers. Tests move a fake clock and these with it. */
  readonly timers?: Timers
}

/** What the team's schedules use of the host. */
export interface TeamSchedulesParts {
  readonly team: Team
  readonly clock: Clock
  readonly ids: IdSource
  readonly trust: WorkspaceTrust
  readonly needsYou: NeedsYou
  readonly prices: () => PriceOverrides
  readonly chat: (text: string) => void
  readonly stopAll: () => void
  readonly applyTemplate: (template: TeamTemplate) => Promise<string>
}

/**
 * The scheduler wired to a team: it hears the team's events (spend, statuses) and changes to
 * `.team/schedules.json`, and acts through the host. Closed with the host.
 */
export class TeamSchedules {
  private readonly scheduler: Scheduler
  private readonly subscriptions: Disposable[]

  constructor(
    private readonly parts: TeamSchedulesParts,
    options: HostScheduleOptions,
  ) {
    const { team } = parts
    this.scheduler = new Scheduler({
      paths: team.paths,
      clock: parts.clock,
      timers: options.timers ?? systemTimers,
      ids: parts.ids,
      trusted: () => parts.trust.isTrusted(),
      statuses: () => [team.leadStatus, ...team.roster.members.map((member) => member.status)],
      hasMembers: () => team.roster.members.length > 0,
      prices: parts.prices,
      chat: parts.chat,
      stopAll: parts.stopAll,
      applyTemplate: (name) => parts.applyTemplate(options.template(name)),
      capReached: (summary, detail) => parts.needsYou.raise(LEAD, 'schedule', summary, detail),
      report: (message) => team.publish(agentErrorEvent('team', 'schedule', message)),
    })
    this.subscriptions = [
      team.subscribe((event) => this.scheduler.observe(event)),
      team.onSchedulesChanged(() => this.scheduler.reload()),
    ]
  }

  start(): void {
    this.scheduler.start()
  }

  /** The file changed here (the person's change in this process): read it now. */
  reload(): void {
    this.scheduler.reload()
  }

  trustChanged(): void {
    this.scheduler.trustChanged()
  }

  runNow(name: string): RunOutcome {
    return this.scheduler.runNow(name)
  }

  listing(): ScheduleListing {
    return scheduleListing(this.scheduler.view(), this.parts.trust.isTrusted())
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.scheduler.close()
  }
}
