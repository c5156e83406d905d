import { assertRealTeamFolder } from '../fs/team-folder'
import type { ControlCommand } from '../../shared/control'
import type { Disposable } from '../../shared/disposable'
import { TeamError } from '../../shared/errors'
import { agentErrorEvent, statusChangedEvent, type TeamEvent } from '../../shared/events'
import type { MailMessage } from '../../shared/messages'
import { LEAD } from '../../shared/names'
import type { MemberStatus, StatusFacts } from '../../shared/roster'
import { systemClock, randomIds, type Clock, type IdSource } from '../system/clock'
import { Mailbox, type SendRequest } from '../mailbox/mailbox'
import { acquireFileLock, type FileLock } from '../fs/file-lock'
import { Roster } from '../roster/roster'
import { TeamPaths } from './paths'
import { TeamWatcher, type TeamChange } from './watcher'
import { isProcessAlive } from '../fs/processes'
import { ControlChannel } from './control-channel'
import { statSync } from 'node:fs'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { join } from 'node:path'
import { TaskBoard } from '../tasks/task-board'
import { TaskFeed } from '../tasks/task-feed'
import { InboxFeed } from '../mailbox/inbox-feed'
import { sweepLeftovers } from '../tasks/task-files'

export interface TeamOptions {
  readonly workspace: string
  readonly clock?: Clock
  readonly ids?: IdSource
  /** Watch `.team/` for changes made by other programs (default true). */
  readonly watch?: boolean
}

export type TeamListener = (event: TeamEvent) => void

/**
 * A workspace's team, opened by the one runtime that owns it: the roster, the mailboxes, the
 * watcher of `.team/`, and the event stream that reports all of it. Opening recovers what a
 * run that died left behind (members stuck `working`).
 */
export class Team {
  private readonly listeners = new Set<TeamListener>()
  private lead: MemberStatus = 'idle'
  private readonly controlListeners = new Set<(command: ControlCommand) => void>()
  private readonly scheduleListeners = new Set<() => void>()
  /** control.jsonl, read from its size at open: commands from before this run are not replayed. */
  private control: ControlChannel | null = null
  private watcher: TeamWatcher | null = null
  /** The pending write of statuses staged in the roster (one per tick, however many change). */
  private statusWrite: NodeJS.Immediate | null = null
  private closed = false
  /** The task board in `.team/tasks/`, shared with other processes (`agent-teams tasks`). */
  readonly tasks: TaskBoard
  /** Reports the board's changes, whoever made them, as `tasks-changed`. */
  readonly taskFeed: TaskFeed
  /** Reports each inbox's changes with its pending count, as `inbox-changed`. */
  private readonly inboxFeed: InboxFeed

  private constructor(
    readonly paths: TeamPaths,
    readonly roster: Roster,
    readonly mailbox: Mailbox,
    private readonly lock: FileLock,
    private readonly pendingEvents: TeamEvent[],
    clock: Clock,
  ) {
    this.tasks = new TaskBoard(paths.root, clock)
    sweepLeftovers(this.tasks.directory)
    this.taskFeed = new TaskFeed(this.tasks, (event) => this.emit(event))
    this.inboxFeed = new InboxFeed(mailbox, (event) => this.emit(event))
  }

  static async open(options: TeamOptions): Promise<Team> {
    const paths = new TeamPaths(options.workspace)
    const clock = options.clock ?? systemClock
    assertRealTeamFolder(paths.root)
    const lock = acquireFileLock(
      join(paths.root, 'runtime.lock'),
      'run the team',
      (holder) =>
        `The team in ${paths.workspace} is already open in ${holder}; close that window or server first.`,
      'workspace-busy',
    )
    try {
      const roster = Roster.open(paths, { clock })
      const mailbox = new Mailbox(paths, {
        members: () => roster.memberNames(),
        clock,
        ids: options.ids ?? randomIds(clock),
      })
      const recovered: TeamEvent[] = roster
        .recoverStale()
        .map((change) => statusChangedEvent(change))
      const team = new Team(paths, roster, mailbox, lock, recovered, clock)
      team.control = new ControlChannel(
        paths.control,
        join(paths.root, 'control-rejected.jsonl'),
        fileSize(paths.control),
      )
      if (options.watch !== false) {
        team.watcher = new TeamWatcher(paths, (change) => team.onFileChange(change))
        await team.watcher.ready()
      }
      return team
    } catch (error) {
      lock.release()
      throw error
    }
  }

  /**
   * Subscribes to the team's events. Events raised while opening (recovered members) are
   * delivered to the first subscriber, so that nothing the opening found goes unreported.
   */
  subscribe(listener: TeamListener): Disposable {
    this.listeners.add(listener)
    for (const event of this.pendingEvents.splice(0)) listener(event)
    return { dispose: () => this.listeners.delete(listener) }
  }

  send(request: SendRequest): MailMessage {
    this.assertOpen()
    const message = this.mailbox.send(request)
    this.emit({ type: 'message-sent', message })
    return message
  }

  broadcast(request: { from: string; content: string }): MailMessage[] {
    this.assertOpen()
    const messages = this.mailbox.broadcast(request)
    for (const message of messages) this.emit({ type: 'message-sent', message })
    return messages
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.watcher?.close()
    this.taskFeed.close()
    await this.inboxFeed.close()
    this.flushStatuses()
    this.listeners.clear()
    this.lock.release()
  }

  /** Commands appended to `.team/control.jsonl` by other processes while the team runs. */
  onControl(listener: (command: ControlCommand) => void): Disposable {
    this.controlListeners.add(listener)
    return { dispose: () => this.controlListeners.delete(listener) }
  }

  /** `.team/schedules.json` was changed, added or removed, by anyone. */
  onSchedulesChanged(listener: () => void): Disposable {
    this.scheduleListeners.add(listener)
    return { dispose: () => this.scheduleListeners.delete(listener) }
  }

  private readControl(): void {
    const read = this.control?.read()
    if (!read) return
    for (const rejection of read.rejections)
      this.emit(
        agentErrorEvent(
          'team',
          'invalid-control',
          `Refused the line at byte ${rejection.offset} of ${this.paths.control}: ${rejection.reason}`,
        ),
      )
    for (const command of read.commands)
      for (const listener of this.controlListeners) {
        try {
          listener(command)
        } catch (error) {
          // One command that fails must not keep the others from running, nor end the process.
          this.emit(
            agentErrorEvent(
              ('name' in command ? command.name : null) ?? 'team',
              'internal',
              `control ${command.command}: ${error instanceof Error ? error.message : String(error)}`,
            ),
          )
        }
      }
  }

  private onFileChange(change: TeamChange): void {
    if (change.kind === 'control') {
      this.readControl()
      return
    }
    if (change.kind === 'tasks') {
      this.taskFeed.changed()
      return
    }
    if (change.kind === 'schedules') {
      for (const listener of this.scheduleListeners) listener()
      return
    }
    if (change.kind === 'inbox') {
      this.inboxFeed.changed(change.name, change.change)
      return
    }
    try {
      if (this.roster.reload()) {
        this.emit(this.rosterChanged())
      }
    } catch (error) {
      if (!(error instanceof TeamError)) throw error
      this.reportInvalidRoster(error)
    }
  }

  private reportInvalidRoster(error: TeamError): void {
    const details = error.details as { file?: string; line?: number; column?: number }
    this.emit({
      type: 'roster-invalid',
      message: error.message,
      file: details.file ?? this.paths.config,
      line: details.line ?? 1,
      column: details.column ?? 1,
    })
  }

  /** Applies a change to the roster, writes it, and reports it. */
  updateRoster(change: Parameters<Roster['update']>[0]): void {
    this.roster.update(change)
    this.emit(this.rosterChanged())
  }

  private rosterChanged(): TeamEvent {
    const { team_name, lead } = this.roster.snapshot
    return {
      type: 'roster-changed',
      team_name,
      members: [...this.roster.members],
      ...(lead === undefined ? {} : { lead }),
    }
  }

  /** The lead is not on the roster (as in s09): its status lives here, for this run. */
  get leadStatus(): MemberStatus {
    return this.lead
  }

  /** Records an agent's new status (the roster's for a teammate) and reports the change. */
  setStatus(
    name: string,
    status: MemberStatus,
    reason: string,
    facts: Partial<StatusFacts> = {},
  ): void {
    if (name === LEAD) {
      const previous = this.lead
      if (previous === status) return
      this.lead = status
      this.emit(statusChangedEvent({ name, previous, status, reason }, facts))
      return
    }
    const member = this.roster.find(name)
    if (!member || member.status === status) return
    // A teammate shut down while it worked stays shut down when its activation ends.
    if (member.status === 'shutdown' && status !== 'working') return
    const previous = member.status
    // In memory and reported now; written once for every status that changes in this tick. A
    // shutdown is written at once: lost in a crash, the member would come back `idle` and be
    // woken by the next start (`recoverStale` only knows to undo `working`).
    this.roster.stageStatus(name, status)
    if (status === 'shutdown') this.flushStatuses()
    else if (!this.closed)
      this.statusWrite ??= setImmediate(() => {
        this.statusWrite = null
        this.flushStatuses()
      })
    this.emit(this.rosterChanged())
    this.emit(statusChangedEvent({ name, previous, status, reason }, facts))
  }

  /**
   * Writes the statuses staged by `setStatus` now (otherwise done at the end of the tick). A crash
   * before it loses only them: the file stays valid, and a member it still shows `working` is set
   * idle by the next start (`recoverStale`).
   */
  flushStatuses(): void {
    if (this.statusWrite) clearImmediate(this.statusWrite)
    this.statusWrite = null
    try {
      this.roster.writeStaged()
    } catch (error) {
      // The statuses stay staged for the next write. Reported, not thrown: no caller waits here.
      if (error instanceof TeamError && error.code === 'roster-invalid')
        this.reportInvalidRoster(error)
      else
        this.emit(
          agentErrorEvent(
            'team',
            'io',
            `The roster could not be written: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
    }
  }

  /** Reports an event raised elsewhere in the runtime (agents, the host) to every subscriber. */
  publish(event: TeamEvent): void {
    this.emit(event)
    // A consumer's commit moved the inbox's cursor: what is pending there is counted again.
    if (event.type === 'message-delivered') this.inboxFeed.changed(event.agent, 'consumed')
    else if (event.type === 'message-rejected') this.inboxFeed.changed(event.inbox, 'consumed')
  }

  private emit(event: TeamEvent): void {
    for (const listener of this.listeners) listener(event)
  }

  private assertOpen(): void {
    if (this.closed) throw new TeamError('team-closed', 'The team is closed.')
  }
}

export type { ControlCommand }

/** Whether a runtime holds the team in `paths` open right now (another process, or this one). */
export function isTeamRunning(paths: TeamPaths): boolean {
  try {
    const lock = readRegularTextSync(join(paths.root, 'runtime.lock'), {
      what: 'The lock file',
      maxBytes: FILE_CAPS.cursor,
    })
    const holder = JSON.parse(lock ?? 'null') as {
      pid?: unknown
    }
    return typeof holder.pid === 'number' && isProcessAlive(holder.pid)
  } catch {
    return false
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
