import type { CheckCommand, CheckResult } from '../../shared/reactions'
import type { BashResult } from '../tools/bash'
import type { ToolContext } from '../tools/types'
import { ToolFailure } from '../tools/types'

/** How much of a check's output is kept (its end): what the log and the window hold. */
export const CHECK_TAIL_CHARACTERS = 20_000

/** Runs a command as the teammate's bash would (its sandbox, its policy): check-runs' one effect. */
export type RunCheck = (
  command: string,
  context: ToolContext,
  options: { timeoutMs: number; maxOutputCharacters: number },
) => Promise<{ result: BashResult; blocked: readonly unknown[] }>

export interface CheckRunsDependencies {
  /** The check command as it applies now: null when none is set or the workspace is untrusted. */
  readonly command: () => CheckCommand | null
  /** The teammates that have a worktree of their own, with the commit their branch began at. */
  readonly teammates: () => readonly { name: string; baseCommit: string }[]
  /** The commit `team/<name>` points at, or null when there is no such branch. */
  readonly head: (name: string) => Promise<string | null>
  /** The folder the teammate's bash runs in (its worktree). */
  readonly root: (name: string) => string
  readonly run: RunCheck
  /** Seconds since the epoch. */
  readonly now: () => number
  /** A run began (state `running`) or ended; `previous` is the teammate's result before it. */
  readonly started: (result: CheckResult) => void
  /** `ran` false: it was not run (no shell, or the person did not approve it unsandboxed). */
  readonly finished: (result: CheckResult, previous: CheckResult | null, ran: boolean) => void
  /** A failure of the machinery itself (git refused): the log, never a throw. */
  readonly report: (error: unknown) => void
}

type Outcome = Pick<CheckResult, 'state' | 'exit_code' | 'summary' | 'output_tail'> & {
  readonly ran: boolean
}

interface Running {
  readonly commit: string
  readonly controller: AbortController
  readonly done: Promise<void>
}

/**
 * The check command after each commit on a teammate's branch. The host's ref watcher says
 * branches moved; each teammate's branch tip is compared with the one seen before, and a new one
 * is checked. One run at a time per teammate: a commit made while one runs waits, and a newer
 * one replaces it in the wait (only the newest is worth testing).
 */
export class CheckRuns {
  private readonly seen = new Map<string, string>()
  private readonly running = new Map<string, Running>()
  private readonly queued = new Map<string, string>()
  private readonly results = new Map<string, CheckResult>()
  /** Branch reads in order: a second burst waits for the first. */
  private refreshing: Promise<void> = Promise.resolve()
  private closed = false

  constructor(private readonly deps: CheckRunsDependencies) {}

  /** The teammates' branch tips now are where commits start counting (earlier ones are not run). */
  seed(): Promise<void> {
    this.refreshing = this.refreshing
      .then(async () => {
        for (const { name } of this.deps.teammates()) {
          const head = await this.deps.head(name)
          if (head !== null) this.seen.set(name, head)
        }
      })
      .catch((error: unknown) => this.deps.report(error))
    return this.refreshing
  }

  /** Each teammate's last result (a run under way shows as `running`). */
  resultOf(name: string): CheckResult | null {
    return this.results.get(name) ?? null
  }

  /** Remembers results read from the log at open, so "fixed" is said after a restart too. */
  remember(result: CheckResult): void {
    if (!this.results.has(result.agent)) this.results.set(result.agent, result)
  }

  allResults(): CheckResult[] {
    return [...this.results.values()]
  }

  /** Git's branches moved: read the teammates' tips again and check the new ones. */
  branchesChanged(): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.refresh())
      .catch((error: unknown) => this.deps.report(error))
    return this.refreshing
  }

  /** Resolves once the branch reads under way and the runs they started have ended. */
  async settled(): Promise<void> {
    await this.refreshing
    while (this.running.size > 0)
      await Promise.all([...this.running.values()].map((run) => run.done))
  }

  /** Stops what runs (its process group is killed) and waits for it. */
  async close(): Promise<void> {
    this.closed = true
    this.queued.clear()
    for (const run of this.running.values()) run.controller.abort()
    await Promise.all([...this.running.values()].map((run) => run.done))
    await this.refreshing
  }

  private async refresh(): Promise<void> {
    for (const { name, baseCommit } of this.deps.teammates()) {
      if (this.closed) return
      const head = await this.deps.head(name)
      if (head === null) continue
      const before = this.seen.get(name)
      if (head === before) continue
      this.seen.set(name, head)
      // A branch first seen at its base is a new worktree, not a commit of the teammate's.
      if (before === undefined && head === baseCommit) continue
      if (this.deps.command() !== null) this.enqueue(name, head)
    }
  }

  private enqueue(name: string, commit: string): void {
    if (this.running.has(name)) this.queued.set(name, commit)
    else this.start(name, commit)
  }

  private start(name: string, commit: string): void {
    const check = this.deps.command()
    if (check === null || this.closed) return
    const controller = new AbortController()
    const startedAt = this.deps.now()
    const previous = this.results.get(name) ?? null
    const running: CheckResult = {
      agent: name,
      state: 'running',
      commit,
      command: check.command,
      started_at: startedAt,
      ended_at: null,
      exit_code: null,
      summary: 'running',
      output_tail: '',
    }
    this.results.set(name, running)
    this.deps.started(running)
    const done = this.execute(name, check, controller)
      .then((outcome) => {
        if (outcome === null) {
          // Stopped (the team closed): no result, the last one stands.
          if (previous === null) this.results.delete(name)
          else this.results.set(name, previous)
          return
        }
        const { ran, ...fields } = outcome
        const result: CheckResult = { ...running, ...fields, ended_at: this.deps.now() }
        this.results.set(name, result)
        this.deps.finished(result, previous, ran)
      })
      .catch((error: unknown) => this.deps.report(error))
      .finally(() => {
        this.running.delete(name)
        const next = this.queued.get(name)
        this.queued.delete(name)
        if (next !== undefined) this.start(name, next)
      })
    this.running.set(name, { commit, controller, done })
  }

  /** The run's outcome, or null when it was stopped. */
  private async execute(
    name: string,
    check: CheckCommand,
    controller: AbortController,
  ): Promise<Outcome | null> {
    const timeoutMs = check.timeout_seconds * 1000
    try {
      const { result, blocked } = await this.deps.run(
        check.command,
        { workspace: this.deps.root(name), agent: name, signal: controller.signal },
        { timeoutMs, maxOutputCharacters: CHECK_TAIL_CHARACTERS },
      )
      if (result.aborted) return null
      const note = blocked.length > 0 ? '\n[the sandbox blocked some of what it tried]' : ''
      const tail = `${result.output}${note}`.slice(-CHECK_TAIL_CHARACTERS)
      if (result.timedOut)
        return {
          state: 'failed',
          exit_code: null,
          summary: `timed out after ${check.timeout_seconds} s (killed)`,
          output_tail: tail,
          ran: true,
        }
      const passed = result.exitCode === 0
      return {
        state: passed ? 'passed' : 'failed',
        exit_code: result.exitCode,
        summary: passed
          ? 'passed'
          : result.signal !== null
            ? `failed (killed by ${result.signal})`
            : `failed (exit ${result.exitCode ?? '?'})`,
        output_tail: tail,
        ran: true,
      }
    } catch (error) {
      if (controller.signal.aborted) return null
      // Not run: no shell, or the person did not approve a run outside the sandbox.
      if (error instanceof ToolFailure)
        return {
          state: 'failed',
          exit_code: null,
          summary: `not run: ${error.message}`,
          output_tail: '',
          ran: false,
        }
      throw error
    }
  }
}
