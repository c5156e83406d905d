import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import type { PriceOverrides } from '../../shared/prices'
import type { MemberStatus } from '../../shared/roster'
import { describeCaps, type Schedule } from '../../shared/schedules'
import { UNTRUSTED_NOTE } from '../../shared/trust'
import type { ScheduleEvent, ScheduleRunLine } from '../../shared/unattended-log'
import type { Clock, IdSource } from '../system/clock'
import type { TeamPaths } from '../team/paths'
import { dueBetween, nextOccurrence } from './occurrences'
import { appendRunLine, readRunLog, type ScheduleRecord } from './run-log'
import { readSchedules, findSchedule } from './schedule-file'
import { atRest, ScheduleRun, type RunSpend } from './schedule-run'
import type { TimerHandle, Timers } from './timers'

/**
 * A due time more than this far behind when it is looked at was missed (no team ran then, or
 * the machine slept): the schedule's missed-run policy decides. Closer, it is simply on time.
 */
export const MISSED_AFTER_SECONDS = 120
/** The longest the scheduler sleeps before it looks again (a clock change, a long sleep). */
const LONGEST_WAIT_MS = 60_000
const SHORTEST_WAIT_MS = 1000

/** What the scheduler acts on: the host's commands and views, built by the host. */
export interface SchedulerPorts {
  readonly paths: TeamPaths
  readonly clock: Clock
  readonly timers: Timers
  readonly ids: IdSource
  /** Whether the person trusts the workspace: a schedule shipped with it fires only then. */
  readonly trusted: () => boolean
  /** The lead's status and every member's. */
  readonly statuses: () => readonly MemberStatus[]
  readonly hasMembers: () => boolean
  readonly prices: () => PriceOverrides
  /** The person's message to the lead. */
  readonly chat: (text: string) => void
  readonly stopAll: () => void
  /** Applies a saved or built-in template to the team (which has no members); its summary. */
  readonly applyTemplate: (name: string) => Promise<string>
  /** An entry in Needs-you: the cap stopped the team. */
  readonly capReached: (summary: string, detail: string) => void
  /** Something went wrong that no one asked about (a template that is gone): told in the UI. */
  readonly report: (message: string) => void
}

/** What happened to a run asked for now. */
export type RunOutcome = 'started' | 'waiting' | 'skipped'

/**
 * Runs a team's schedules (`.team/schedules.json`) in the process that holds the team's lock
 * (the window's app or `serve`): one run at a time, each sending its prompt to the lead,
 * counting what the team spends from its start and stopping the team at its cap. Every event is
 * a line of `.team/schedule-runs.jsonl`, which is also where the last due time dealt with is
 * read back from at the next start.
 */
export class Scheduler {
  private schedules: readonly Schedule[] = []
  private problem: string | null = null
  private readonly records = new Map<string, ScheduleRecord>()
  private current: ScheduleRun | null = null
  /** Schedules due while a run worked, in order, each with the time it was due. */
  private readonly waiting: { name: string; due: number }[] = []
  private timer: TimerHandle | null = null
  private closed = false

  constructor(private readonly ports: SchedulerPorts) {}

  /** Reads the file and the log, deals with runs missed while no team ran, and arms the timer. */
  start(): void {
    const log = readRunLog(this.ports.paths, this.now())
    for (const [name, record] of log.records) this.records.set(name, record)
    this.reload()
  }

  /** `.team/schedules.json` changed (the person, another process): read again and look. */
  reload(): void {
    if (this.closed) return
    const reading = readSchedules(this.ports.paths)
    this.schedules = reading.schedules
    this.problem = reading.problem
    if (reading.problem !== null) this.ports.report(reading.problem)
    this.look()
  }

  /** The trust changed: a workspace trusted now owes what fell due (once), as at a start. */
  trustChanged(): void {
    this.look()
  }

  /** The schedules as read, the file's problem, and each one's record and state. */
  view(): {
    schedules: readonly Schedule[]
    problem: string | null
    records: ReadonlyMap<string, ScheduleRecord>
    running: string | null
    waiting: readonly string[]
  } {
    return {
      schedules: this.schedules,
      problem: this.problem,
      records: this.records,
      running: this.current?.schedule.name ?? null,
      waiting: this.waiting.map((entry) => entry.name),
    }
  }

  /** The person's "run now": at once, or as its overlap policy says while another run works. */
  runNow(name: string): RunOutcome {
    if (this.closed) throw new TeamError('team-closed', 'The team is closed.')
    if (!this.ports.trusted())
      throw new TeamError('not-permitted', `Schedules do not run: ${UNTRUSTED_NOTE}.`)
    if (this.problem !== null) throw new TeamError('file-invalid', this.problem)
    const schedule = findSchedule(this.ports.paths, this.schedules, name)
    return this.due(schedule, this.now(), 'run now')
  }

  /** The team's events: what a run spends, and when its agents are all at rest again. */
  observe(event: TeamEvent): void {
    const run = this.current
    if (run === null || this.closed) return
    if (event.type === 'usage-reported') {
      run.count(event.model, event.usage)
      if (run.capped) return
      const spend = run.spend(this.ports.prices())
      const reason = run.capReason(spend)
      if (reason !== null) this.cap(run, reason, spend)
    } else if (event.type === 'agent-status-changed') {
      // Mail sent before the stop can wake an agent after it: a capped run stays stopped.
      if (run.capped && event.status === 'working') this.ports.stopAll()
      if (run.started && this.ports.statuses().every(atRest)) this.end(run)
    }
  }

  close(): void {
    this.closed = true
    this.timer?.cancel()
    this.timer = null
  }

  /** Deals with every schedule that fell due, then sleeps until the next one. */
  private look(): void {
    if (this.closed) return
    this.timer?.cancel()
    this.timer = null
    if (!this.ports.trusted() || this.problem !== null) return
    const now = this.now()
    let next: number | null = null
    for (const schedule of this.schedules) {
      if (!schedule.enabled) continue
      const after = this.dealtWithUntil(schedule)
      const due = dueBetween(schedule, after, now)
      if (due !== null) {
        const missed = now - due.latest > MISSED_AFTER_SECONDS
        if (missed && schedule.missed === 'skip') {
          this.markDealtWith(schedule.name, due.latest)
          this.line(schedule, 'skipped', {
            run: null,
            due: due.latest,
            summary: `${schedule.name}: ${runs(due.count)} missed while no team ran: skipped, as set`,
          })
        } else
          this.due(
            schedule,
            due.latest,
            missed ? `catching up ${runs(due.count)} missed while no team ran` : null,
          )
      }
      const upcoming = nextOccurrence(
        schedule.when,
        schedule.created_at,
        this.dealtWithUntil(schedule),
      )
      if (upcoming !== null && (next === null || upcoming < next)) next = upcoming
    }
    if (next === null) return
    // At least a second: a due time this look could not deal with never spins the loop.
    const wait = Math.min(Math.max(SHORTEST_WAIT_MS, (next - now) * 1000), LONGEST_WAIT_MS)
    this.timer = this.ports.timers.setTimeout(() => {
      this.timer = null
      this.look()
    }, wait)
  }

  /** The time up to which a schedule's due times were dealt with (or are not owed). */
  private dealtWithUntil(schedule: Schedule): number {
    const last = this.records.get(schedule.name)?.lastDue ?? null
    return Math.max(last ?? 0, schedule.updated_at)
  }

  /** A schedule fell due (or was asked to run now): it starts, waits or is skipped. */
  private due(schedule: Schedule, due: number, note: string | null): RunOutcome {
    const running = this.current
    if (running === null) {
      this.begin(schedule, due, note)
      return 'started'
    }
    this.markDealtWith(schedule.name, due)
    const busy = `the run of ${running.schedule.name} was still working`
    if (schedule.overlap === 'skip') {
      this.line(schedule, 'skipped', {
        run: null,
        due,
        summary: `${schedule.name}: due while ${busy}: skipped, as set`,
      })
      return 'skipped'
    }
    if (!this.waiting.some((entry) => entry.name === schedule.name)) {
      this.waiting.push({ name: schedule.name, due })
      this.line(schedule, 'waiting', {
        run: null,
        due,
        summary: `${schedule.name}: due while ${busy}: it starts when that run finishes`,
      })
    }
    return 'waiting'
  }

  /** A run begins: the template on an empty team first, then the prompt to the lead. */
  private begin(schedule: Schedule, due: number, note: string | null): void {
    const run = new ScheduleRun(this.ports.ids.next('s'), schedule, this.now())
    this.current = run
    this.markDealtWith(schedule.name, due)
    void this.prepare(schedule).then(
      (prepared) => {
        if (this.closed || this.current !== run) return
        if (run.capped) {
          // The template's teammates spent the cap before the prompt could go: it does not.
          run.started = true
          if (this.ports.statuses().every(atRest)) this.end(run)
          return
        }
        try {
          this.ports.chat(schedule.prompt)
        } catch (error) {
          this.failed(run, error)
          return
        }
        run.started = true
        this.line(schedule, 'started', {
          run: run.id,
          due,
          summary: [
            `${schedule.name}: sent its prompt to the lead (cap ${describeCaps(schedule.caps)})`,
            prepared,
            note,
          ]
            .filter((part) => part !== null)
            .join('; '),
        })
      },
      (error: unknown) => this.failed(run, error),
    )
  }

  /** The template, applied when given and the team is empty; what was done, in words. */
  private async prepare(schedule: Schedule): Promise<string | null> {
    if (schedule.template === null) return null
    if (this.ports.hasMembers())
      return `the team has members, so the template ${schedule.template} was not applied`
    await this.ports.applyTemplate(schedule.template)
    return `applied the template ${schedule.template}`
  }

  private failed(run: ScheduleRun, error: unknown): void {
    if (this.closed || this.current !== run) return
    const message = error instanceof Error ? error.message : String(error)
    this.line(run.schedule, 'skipped', {
      run: run.id,
      due: null,
      summary: `${run.schedule.name}: could not start: ${message}`,
    })
    this.ports.report(`The scheduled run ${run.schedule.name} could not start: ${message}`)
    this.current = null
    this.next()
  }

  /** The cap was reached: the team stops, the person is told, and the run ends. */
  private cap(run: ScheduleRun, reason: string, spend: RunSpend): void {
    run.capped = true
    this.ports.stopAll()
    const summary = `Scheduled run ${run.schedule.name} stopped the team: ${reason}`
    this.line(run.schedule, 'capped', { run: run.id, due: null, summary, spend })
    this.ports.capReached(
      `scheduled run ${run.schedule.name} reached its cap (${describeCaps(run.schedule.caps)})`,
      `${summary}.\nEvery agent was stopped. Resume the lead to go on past the cap, or dismiss this; the schedule runs again when it is next due, with a fresh cap.`,
    )
    if (run.started && this.ports.statuses().every(atRest)) this.end(run)
  }

  /** Every agent is at rest: the run is over (a capped one said so already). */
  private end(run: ScheduleRun): void {
    if (this.current !== run) return
    this.current = null
    if (!run.capped)
      this.line(run.schedule, 'finished', {
        run: run.id,
        due: null,
        summary: `${run.schedule.name}: finished (the lead and every teammate are idle)`,
        spend: run.spend(this.ports.prices()),
      })
    this.next()
  }

  /**
   * The first schedule that waited starts, once the turn that ended the last run has wound
   * down: a prompt given from inside an agent's last status change could find its loop still
   * closing and be left for the next wake.
   */
  private next(): void {
    if (this.waiting.length === 0) return
    setImmediate(() => this.startWaiting())
  }

  private startWaiting(): void {
    if (this.current !== null) return
    const waited = this.waiting.shift()
    if (waited === undefined || this.closed) return
    const schedule = this.schedules.find((candidate) => candidate.name === waited.name)
    if (schedule === undefined || !schedule.enabled || !this.ports.trusted())
      return this.startWaiting()
    this.begin(schedule, waited.due, 'it waited for the run before it')
  }

  private markDealtWith(name: string, due: number): void {
    const record = this.records.get(name)
    this.records.set(name, {
      lastDue: Math.max(record?.lastDue ?? 0, due),
      lastLine: record?.lastLine ?? null,
    })
  }

  private line(
    schedule: Schedule,
    event: ScheduleEvent,
    fields: { run: string | null; due: number | null; summary: string; spend?: RunSpend },
  ): void {
    // A run's id is its `started` line's.
    const id = event === 'started' && fields.run !== null ? fields.run : this.ports.ids.next('s')
    const line: ScheduleRunLine = {
      v: 1,
      id,
      run: fields.run ?? id,
      schedule: schedule.name,
      event,
      at: this.now(),
      ...(fields.due === null ? {} : { due: fields.due }),
      summary: fields.summary.slice(0, 500),
      ...(fields.spend === undefined ? {} : { usd: fields.spend.usd, tokens: fields.spend.tokens }),
    }
    const record = this.records.get(schedule.name)
    this.records.set(schedule.name, { lastDue: record?.lastDue ?? null, lastLine: line })
    try {
      appendRunLine(this.ports.paths, line)
    } catch (error) {
      this.ports.report(
        `The schedules' run log could not be written: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  private now(): number {
    return this.ports.clock.now() / 1000
  }
}

function runs(count: number): string {
  if (count >= 1000) return 'over 1,000 runs'
  return count === 1 ? '1 run' : `${count} runs`
}
