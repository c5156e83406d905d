import type { TeamEvent } from '../../shared/events'
import { LEAD } from '../../shared/names'
import type {
  CheckCommand,
  CheckResult,
  ReactionsChange,
  ReactionsConfig,
  ReactionsView,
} from '../../shared/reactions'
import type { MemberStatus } from '../../shared/roster'
import type { Task } from '../../shared/tasks'
import type { ReactionKind, ReactionLine } from '../../shared/unattended-log'
import type { Clock, IdSource } from '../system/clock'
import type { TeamPaths } from '../team/paths'
import { CheckRuns, type RunCheck } from './check-runs'
import { readReactionsConfig, writeReactionsConfig } from './config-file'
import { checkResultOf, countLine, ReactionLog, type ReactionTotals } from './reaction-log'
import {
  checkFailedText,
  checkFixedText,
  conflictText,
  idleTaskNudgeText,
  shortCommit,
  silentNudgeText,
} from './reaction-texts'
import { StallWatch, type Nudge } from './stall-watch'

/** How often the stall watch looks, by default. */
export const STALL_TICK_MS = 5000

export interface TeamReactionsDependencies {
  readonly paths: TeamPaths
  readonly clock: Clock
  readonly ids: IdSource
  /** Whether the person trusts the workspace: no reaction runs or wakes anyone until then. */
  readonly trusted: () => boolean
  /** Runs the person's own change so that a trusted workspace stays trusted (it is a grant). */
  readonly keep: <T>(change: () => T) => T
  /** Mail from the reactions to an agent (a reserved sender). */
  readonly send: (to: string, content: string, extra: Record<string, unknown>) => void
  readonly publish: (event: TeamEvent) => void
  readonly statuses: () => ReadonlyMap<string, MemberStatus>
  readonly tasks: () => readonly Task[]
  readonly needsYou: {
    raise(agent: string, kind: 'stall', summary: string, detail: string): void
    clear(agent: string, kinds: readonly 'stall'[]): void
  }
  readonly teammates: () => readonly { name: string; baseCommit: string }[]
  readonly head: (name: string) => Promise<string | null>
  readonly root: (name: string) => string
  readonly run: RunCheck
  readonly report: (error: unknown) => void
  /** How often the stall watch looks (null: never by itself, for tests that tick). */
  readonly tickMs?: number | null
}

/**
 * The team's reactions (shared/reactions.ts): the check command after each teammate's commit,
 * nudges and escalations of agents that do not move, merge conflicts sent to the branch's owner,
 * and the record of folded wakes. Each reaction is a line of `.team/reactions.jsonl` and counted.
 * None runs while the workspace is untrusted.
 */
export class TeamReactions {
  private readonly log: ReactionLog
  private readonly totals: ReactionTotals
  private readonly checks: CheckRuns
  private readonly stalls: StallWatch
  private readonly timer: NodeJS.Timeout | null
  private closed = false

  constructor(private readonly deps: TeamReactionsDependencies) {
    this.log = new ReactionLog(deps.paths)
    this.totals = this.log.totals()
    this.checks = new CheckRuns({
      command: () => this.activeCheck(),
      teammates: deps.teammates,
      head: deps.head,
      root: deps.root,
      run: deps.run,
      now: () => this.seconds(),
      started: () => this.changed(),
      finished: (result, previous, ran) => this.checkFinished(result, previous, ran),
      report: deps.report,
    })
    for (const line of this.totals.lastChecks.values()) this.checks.remember(checkResultOf(line))
    this.stalls = new StallWatch({
      now: () => deps.clock.now(),
      statuses: deps.statuses,
      tasksInProgress: () => deps.tasks().filter((task) => task.status === 'in_progress'),
      nudge: (nudge, config) => this.nudge(nudge, config),
      escalate: (nudge, config) => this.escalate(nudge, config),
      settle: (agent) => deps.needsYou.clear(agent, ['stall']),
    })
    const tickMs = deps.tickMs === undefined ? STALL_TICK_MS : deps.tickMs
    this.timer = tickMs === null ? null : setInterval(() => this.tick(), tickMs)
    this.timer?.unref()
  }

  /** Where commits start counting: the teammates' branch tips as the team opens. */
  seed(): Promise<void> {
    return this.checks.seed()
  }

  /** Every event of the team: commits, moves, folded mail. */
  handle(event: TeamEvent): void {
    if (this.closed) return
    this.stalls.observe(event)
    if (event.type === 'branches-changed') void this.checks.branchesChanged()
    else if (event.type === 'transcript-appended' && event.record.kind === 'inbox')
      this.folded(event.agent, event.record.messages.length)
  }

  /** The stall watch's look (its timer calls this; tests call it after moving the clock). */
  tick(): void {
    if (this.closed || !this.deps.trusted()) return
    const reading = readReactionsConfig(this.deps.paths)
    this.stalls.tick(reading.config)
  }

  /** Git's branches moved: resolves once the new tips were read (and their checks queued). */
  branchesChanged(): Promise<void> {
    return this.checks.branchesChanged()
  }

  /** Resolves once no check runs or waits (tests; a clean close). */
  checksSettled(): Promise<void> {
    return this.checks.settled()
  }

  /**
   * A merge of `name`'s branch conflicted: with the reaction on (and the workspace trusted) the
   * owner gets the files and what to do. Returns whether it was sent.
   */
  conflicted(name: string, into: string, files: readonly string[]): boolean {
    if (this.closed || !this.deps.trusted()) return false
    if (!readReactionsConfig(this.deps.paths).config.conflicts) return false
    this.deps.send(name, conflictText(name, into, files), {
      review: { kind: 'conflict', into, files: [...files] },
    })
    this.record('conflict', name, {
      summary: `merge of team/${name} into ${into} conflicted in ${files.length} file${files.length === 1 ? '' : 's'}: sent to ${name}`,
      failed: true,
    })
    return true
  }

  view(): ReactionsView {
    const reading = readReactionsConfig(this.deps.paths)
    return {
      config: reading.config,
      problem: reading.problem ?? this.totals.problem,
      trusted: this.deps.trusted(),
      counts: { ...this.totals.counts },
      unreadable_lines: this.totals.unreadable,
      checks: this.checks.allResults().sort((a, b) => b.started_at - a.started_at),
    }
  }

  /** A teammate's last check (its branch line, Changes). */
  checkOf(name: string): CheckResult | null {
    return this.checks.resultOf(name)
  }

  /**
   * The person's change: written atomically, then shown. A trusted workspace stays trusted: the
   * check command is a grant, and this one is the person's.
   */
  set(change: ReactionsChange): ReactionsView {
    this.deps.keep(() => writeReactionsConfig(this.deps.paths, change))
    this.changed()
    return this.view()
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.timer !== null) clearInterval(this.timer)
    await this.checks.close()
  }

  /** The check command as it applies now: none while untrusted. */
  private activeCheck(): CheckCommand | null {
    if (this.closed || !this.deps.trusted()) return null
    return readReactionsConfig(this.deps.paths).config.check
  }

  private checkFinished(result: CheckResult, previous: CheckResult | null, ran: boolean): void {
    const failed = ran && result.state === 'failed'
    this.record('check', result.agent, {
      at: result.started_at,
      end: result.ended_at,
      summary: `check \`${result.command}\` ${result.summary} on ${shortCommit(result.commit)}`,
      failed,
      command: result.command,
      commit: result.commit,
      exit_code: result.exit_code,
      output_tail: result.output_tail,
    })
    if (failed)
      this.deps.send(
        result.agent,
        checkFailedText(result.command, result.commit, result.summary, result.output_tail),
        { reaction: { kind: 'check', state: 'failed', commit: result.commit } },
      )
    else if (result.state === 'passed' && previous?.state === 'failed')
      this.deps.send(result.agent, checkFixedText(result.command, result.commit), {
        reaction: { kind: 'check', state: 'passed', commit: result.commit },
      })
  }

  private nudge(nudge: Nudge, config: ReactionsConfig): void {
    const content =
      nudge.reason === 'silent'
        ? silentNudgeText(config.stall.after_seconds)
        : idleTaskNudgeText(nudge.task ?? { id: '?', subject: '' })
    this.deps.send(nudge.agent, content, { reaction: { kind: 'nudge', reason: nudge.reason } })
    this.record('nudge', nudge.agent, {
      summary:
        nudge.reason === 'silent'
          ? `${nudge.agent} was nudged: working without a word`
          : `${nudge.agent} was nudged: idle with task #${nudge.task?.id ?? '?'} in progress`,
      failed: false,
      reason: nudge.reason,
      ...(nudge.task === null ? {} : { task: nudge.task.id }),
    })
  }

  private escalate(nudge: Nudge, config: ReactionsConfig): void {
    const waited = `${Math.round(config.escalate_after_seconds / 60)} min`
    const why =
      nudge.reason === 'silent'
        ? `${nudge.agent} has been working without a word, and has not moved in the ${waited} since it was nudged.`
        : `${nudge.agent} is idle with task #${nudge.task?.id ?? '?'} (${nudge.task?.subject ?? ''}) in progress, and has not moved it in the ${waited} since it was nudged.`
    this.deps.needsYou.raise(
      nudge.agent,
      'stall',
      `${nudge.agent} has not moved since a nudge`,
      `${why} Resume it, message it, or stop it.`,
    )
    this.record('escalate', nudge.agent, {
      summary: `${nudge.agent} did not move after a nudge: in Needs-you`,
      failed: true,
      reason: nudge.reason,
      ...(nudge.task === null ? {} : { task: nudge.task.id }),
    })
  }

  private folded(agent: string, messages: number): void {
    if (messages < 2) return
    this.record('fold', agent, {
      summary: `${messages} messages to ${agent} were taken in one turn`,
      failed: false,
      folded: messages,
    })
  }

  private record(
    kind: ReactionKind,
    agent: string,
    fields: Partial<ReactionLine> & Pick<ReactionLine, 'summary' | 'failed'>,
  ): void {
    const line: ReactionLine = {
      v: 1,
      id: this.deps.ids.next('r'),
      kind,
      at: this.seconds(),
      end: null,
      agent,
      ...fields,
      summary: fields.summary.slice(0, 500),
    }
    try {
      this.log.append(line)
      countLine(this.totals, line)
    } catch (error) {
      this.deps.report(error)
    }
    this.changed()
  }

  private changed(): void {
    if (!this.closed) this.deps.publish({ type: 'reactions-changed', reactions: this.view() })
  }

  private seconds(): number {
    return this.deps.clock.now() / 1000
  }
}

/** The statuses the stall watch follows: the lead's and every member's. */
export function teamStatuses(
  leadStatus: MemberStatus,
  members: readonly { name: string; status: MemberStatus }[],
): Map<string, MemberStatus> {
  const statuses = new Map<string, MemberStatus>([[LEAD, leadStatus]])
  for (const member of members) statuses.set(member.name, member.status)
  return statuses
}
