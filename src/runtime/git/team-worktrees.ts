import type { Disposable } from '../../shared/disposable'
import { TeamError } from '../../shared/errors'
import {
  teammateBranch,
  type DiffScope,
  type MemberWorktree,
  type MergeResult,
  type ReviewDiff,
  type WorktreeView,
} from '../../shared/worktree'
import { changedPaths, diffBetween } from './diff'
import { mergeBranch } from './merge'
import { TaskMarks, taskRef } from './task-marks'
import { mergeRef, turnStartRef, Worktrees } from './worktrees'
import type { WorktreeRecord } from './worktree-records'
import type { Member, RosterFile } from '../../shared/roster'

/** Told when a teammate's branch was merged: the task board moves its tasks in review to done. */
export type MergeListener = (
  name: string,
  result: Extract<MergeResult, { outcome: 'merged' }>,
) => void

/**
 * Told when a merge of a teammate's branch conflicted (the reactions send it to the owner);
 * returns whether the owner was told.
 */
export type ConflictHandler = (name: string, into: string, files: readonly string[]) => boolean

export interface TeamWorktreesDependencies {
  readonly workspace: string
  /** The workspace's folder in the app's data: the worktrees and the app's records of them. */
  readonly dataFolder: string
  /** The roster as it is now (the running team's, or config.json read by the CLI). */
  readonly roster: () => RosterFile
  /** Changes config.json (the team's worktree default); absent where only reading. */
  readonly updateRoster?: (change: (draft: RosterFile) => void) => void
  /** Sends the person's message to a teammate (review comments, rejections, hand-backs). */
  readonly sendToTeammate: (to: string, content: string, extra: Record<string, unknown>) => void
  /** Told of git work that failed in the background (a turn's mark): the log, not a throw. */
  readonly report?: (error: unknown) => void
}

/**
 * The team's side of the worktrees: which teammate has one (config.json's `worktree`, and the
 * app's record of the folder it made), where its tools run, and the review loop over its branch
 * (diff, comments, merge, reject). Git runs asynchronously; what must happen before a teammate
 * changes anything more (the mark of its turn's or task's start) is queued per teammate, and its
 * tool calls wait for that queue (`settled`).
 */
export class TeamWorktrees {
  readonly git: Worktrees
  private readonly mergeListeners = new Set<MergeListener>()
  private conflictHandler: ConflictHandler | null = null
  /** Changed files per teammate, until its next tool call or status change. */
  private readonly changed = new Map<string, string[]>()
  /** Per teammate, the git work its next tool call waits for. */
  private readonly queues = new Map<string, Promise<void>>()
  private closed = false

  /** Where each task's work begins and ends on its owner's branch (the "task" diff). */
  readonly taskMarks: TaskMarks

  constructor(private readonly deps: TeamWorktreesDependencies) {
    this.git = new Worktrees({ workspace: deps.workspace, dataFolder: deps.dataFolder })
    this.taskMarks = new TaskMarks({
      hasWorktree: (name) => this.record(name) !== null && this.git.exists(name),
      snapshot: (name) => this.git.snapshot(name),
      setRef: (ref, commit) => this.git.setRef(ref, commit),
      deleteRef: (ref) => this.git.deleteRef(ref),
      appRef: (ref) => this.git.appRef(ref),
      queue: (name, work) => this.queue(name, work),
    })
  }

  /** The hook the task board wires: called after every successful merge. */
  onMerged(listener: MergeListener): Disposable {
    this.mergeListeners.add(listener)
    return { dispose: () => this.mergeListeners.delete(listener) }
  }

  /** Who hears of a conflicted merge (one: the team's reactions). */
  onConflict(handler: ConflictHandler): Disposable {
    this.conflictHandler = handler
    return {
      dispose: () => {
        if (this.conflictHandler === handler) this.conflictHandler = null
      },
    }
  }

  /** The member's worktree record in config.json, or null when it works in the shared workspace. */
  record(name: string): MemberWorktree | null {
    return this.member(name)?.worktree ?? null
  }

  /**
   * Where the app made `name`'s worktree (folder, git folders), or null: what the sandbox lets
   * it write. Null also for a member whose config.json says "worktree" but whose folder the
   * app has not made (a roster from elsewhere): its tools then wait for `settled`, which makes it.
   */
  sandboxRecord(name: string): WorktreeRecord | null {
    return this.record(name) === null ? null : this.git.record(name)
  }

  /** The folder `name`'s file tools and bash work in. */
  toolRoot(name: string): string {
    if (this.record(name) === null) return this.deps.workspace
    if (this.git.record(name) === null)
      throw new TeamError(
        'worktree-not-ready',
        `${name}'s worktree is not ready yet; its tools run once the app has made it.`,
      )
    return this.git.root(name)
  }

  /** The folder `name`'s system prompt names: its worktree's, or the workspace before it exists. */
  promptRoot(name: string): string {
    return this.record(name) !== null && this.git.record(name) !== null
      ? this.git.root(name)
      : this.deps.workspace
  }

  /**
   * Resolves once the git work queued for `name` is done (and its worktree made, where
   * config.json gives it one the app has not made yet): its tool calls wait for this.
   */
  settled(name: string): Promise<void> {
    const record = this.record(name)
    if (record !== null && !this.git.exists(name))
      this.queue(name, () => this.git.ensure(name, record))
    return this.queues.get(name) ?? Promise.resolve()
  }

  /** Resolves once every agent's queued git work (checkpoints, marks) is done. */
  async allSettled(): Promise<void> {
    await Promise.all([...this.queues.values()])
  }

  /** Whether a spawn gives a worktree when it does not say (the team's setting, and git). */
  get defaultOn(): boolean {
    return this.deps.roster().worktrees !== false
  }

  setDefault(on: boolean): void {
    if (!this.deps.updateRoster)
      throw new TeamError('not-running', 'The team must be running to change its settings.')
    this.deps.updateRoster((draft) => {
      draft.worktrees = on
    })
  }

  /**
   * Decides `name`'s worktree at a spawn: kept when it has one, made when asked (or by
   * default in a git repository), else none; and the note the spawn's answer carries.
   */
  async atSpawn(
    name: string,
    wanted: boolean | undefined,
  ): Promise<{ record: MemberWorktree | null; note: string }> {
    const existing = this.record(name)
    const branch = teammateBranch(name)
    if (existing !== null) {
      await this.settled(name)
      await this.git.ensure(name, existing)
      return { record: existing, note: `works in its worktree on ${branch} (kept)` }
    }
    if (wanted === false || (wanted === undefined && !this.defaultOn))
      return { record: null, note: 'works in the shared workspace (worktree off)' }
    let usable: boolean
    try {
      usable = await this.git.available()
    } catch (error) {
      if (!(error instanceof TeamError) || error.code !== 'unsafe-repository') throw error
      return { record: null, note: `works in the shared workspace: ${error.message}` }
    }
    if (!usable)
      return {
        record: null,
        // Said when a worktree was asked for; by default a plain folder is simply shared.
        note:
          wanted === true
            ? 'works in the shared workspace: the workspace is not a git repository with a commit (or became one after the team opened)'
            : '',
      }
    const record = await this.git.create(name)
    return { record, note: `works in its own worktree on ${branch} from ${record.base}` }
  }

  /** Called when `name` starts a turn: its "last turn" diff starts here. */
  turnStarted(name: string): void {
    this.changed.delete(name)
    if (this.record(name) !== null) this.queue(name, () => this.git.markTurnStart(name))
  }

  /** Something in `name`'s worktree may have changed (a tool call, a turn's end). */
  touched(name: string): void {
    this.changed.delete(name)
  }

  /** Git's branches moved (a commit or merge, here or by another process): count again. */
  refsChanged(): void {
    this.changed.clear()
  }

  /** `name`'s changes: its branch, its last turn, a task of its own (`task`), or a `range`. */
  async diff(
    name: string,
    scope: DiffScope,
    range?: { from: string; to: string },
    task?: string,
  ): Promise<ReviewDiff> {
    const record = this.required(name)
    await this.settled(name)
    const cwd = this.deps.workspace
    let from: string
    let to: string
    const notes: string[] = []
    if (scope === 'task') {
      if (task === undefined)
        throw new TeamError('invalid-argument', 'A task diff needs the task id, such as 3.')
      // A task still in progress ends at the worktree as it is now; one never marked (taken
      // before its owner had a worktree) starts where the branch does.
      const end = await this.appRefNoted(taskRef(name, task, 'end'), notes)
      to = end ?? (await this.tip(name))
      const start = await this.appRefNoted(taskRef(name, task, 'start'), notes)
      if (start !== null) from = start
      else {
        from = await this.mergeBase(record.base, to, record.base_commit)
        notes.push(
          `Where task #${task} began was not recorded (it was claimed before this version, or while the app was closed), so this is the whole branch up to ${end !== null ? 'its completion' : 'now'}.`,
        )
      }
    } else if (scope === 'range') {
      if (!range)
        throw new TeamError('invalid-argument', 'A range diff needs a from and a to commit.')
      from = await this.commitOf(range.from)
      to = await this.commitOf(range.to)
    } else {
      to = await this.tip(name)
      const turnStart = scope === 'turn' ? await this.appRefNoted(turnStartRef(name), notes) : null
      from = turnStart ?? (await this.mergeBase(record.base, to, record.base_commit))
    }
    const { files } = await diffBetween(this.git.git, cwd, from, to)
    const overlaps = await this.overlapsOf(
      name,
      files.map((file) => file.path),
    )
    const diff: ReviewDiff = {
      name,
      branch: teammateBranch(name),
      base: record.base,
      scope,
      files,
      overlaps,
    }
    return notes.length === 0 ? diff : { ...diff, note: notes.join(' ') }
  }

  /** The roster's view of every teammate with a worktree: its branch, changed files, overlaps. */
  async views(): Promise<Map<string, WorktreeView>> {
    const views = new Map<string, WorktreeView>()
    for (const member of this.deps.roster().members) {
      const view = await this.view(member.name)
      if (view !== null) views.set(member.name, view)
    }
    return views
  }

  /** One teammate's view, or null when it works in the shared workspace. */
  async view(name: string): Promise<WorktreeView | null> {
    const record = this.record(name)
    if (record === null) return null
    const files = await this.changedFiles(name)
    return {
      branch: teammateBranch(name),
      base: record.base,
      changedFiles: files.length,
      overlaps: await this.overlapsOf(name, files),
    }
  }

  async merge(
    name: string,
    options: { into?: string; squash?: boolean; confirm?: boolean },
  ): Promise<MergeResult> {
    const record = this.required(name)
    // Its uncommitted work is committed first: not while it is still writing it.
    if (this.member(name)?.status === 'working')
      throw new TeamError(
        'member-working',
        `${name} is working right now; wait until it is idle, or stop it, then merge.`,
      )
    await this.settled(name)
    const result = await mergeBranch(this.git, name, {
      into: options.into ?? record.base,
      squash: options.squash === true,
      confirm: options.confirm,
    })
    this.changed.clear()
    if (result.outcome === 'merged') {
      await this.recordMerge(name, result.commit)
      for (const listener of this.mergeListeners) listener(name, result)
    }
    if (result.outcome === 'conflict' && this.conflictHandler?.(name, result.into, result.files))
      return { ...result, handed_back: true }
    return result
  }

  /** Marks a merge as the app's (mergeRef); a failure to is reported, the merge stands. */
  private async recordMerge(name: string, commit: string): Promise<void> {
    try {
      await this.git.setRef(mergeRef(name, commit), commit)
    } catch (error) {
      this.deps.report?.(error)
    }
  }

  /** Hands a conflict back: the teammate is told which files and how to resolve them. */
  handBack(name: string, into: string, files: readonly string[]): void {
    this.required(name)
    const list = files.length > 0 ? files.join(', ') : '(the files git names)'
    this.deps.sendToTeammate(
      name,
      `Your branch ${teammateBranch(name)} conflicts with ${into} in: ${list}. ` +
        `In your worktree, run \`git merge ${into}\`, resolve the conflicts in those files, ` +
        'commit, and tell me when it is done.',
      { review: { kind: 'conflict', into, files: [...files] } },
    )
  }

  reject(name: string, reason: string): void {
    this.required(name)
    this.deps.sendToTeammate(
      name,
      `Your changes on ${teammateBranch(name)} were not accepted: ${reason}`,
      { review: { kind: 'rejected', reason } },
    )
  }

  /** A line comment: the teammate gets a message naming the file and the line. */
  comment(name: string, comment: { file: string; line: number; text: string }): void {
    if (!this.member(name)) throw new TeamError('unknown-agent', `"${name}" is not on the roster.`)
    this.deps.sendToTeammate(
      name,
      `Review comment on ${comment.file}, line ${comment.line}: ${comment.text}`,
      { review: { kind: 'comment', file: comment.file, line: comment.line } },
    )
  }

  /** The paths `name` changed against its base (cached until its next tool call). */
  async changedFiles(name: string): Promise<string[]> {
    const cached = this.changed.get(name)
    if (cached) return cached
    const record = this.record(name)
    if (record === null || !this.git.exists(name)) return []
    const to = await this.tip(name)
    const from = await this.mergeBase(record.base, to, record.base_commit)
    const files = await changedPaths(this.git.git, this.deps.workspace, from, to)
    this.changed.set(name, files)
    return files
  }

  /** Waits for the git work under way, and takes no more (the team is closing). */
  async close(): Promise<void> {
    this.closed = true
    await Promise.all([...this.queues.values()])
  }

  /** Runs `work` after what is queued for `name`; a failure is reported, never thrown here. */
  queue(name: string, work: () => Promise<void>): void {
    if (this.closed) return
    void this.enqueue(name, work).catch((error: unknown) => this.deps.report?.(error))
  }

  /**
   * Runs `work` after the git work queued for `name` (its tool calls wait for it in turn): its
   * result, or its error, to the caller. A checkpoint and an undo are queued this way, so no
   * tool call of `name` runs in the middle of either.
   */
  enqueue<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new TeamError('team-closed', 'The team is closing.'))
    const previous = this.queues.get(name) ?? Promise.resolve()
    const result = previous.then(work)
    const next = result.then(
      () => undefined,
      () => undefined,
    )
    this.queues.set(name, next)
    void next.finally(() => {
      if (this.queues.get(name) === next) this.queues.delete(name)
    })
    return result
  }

  /** For each of `files`, the other teammates whose branches change it too. */
  private async overlapsOf(
    name: string,
    files: readonly string[],
  ): Promise<Record<string, string[]>> {
    const overlaps: Record<string, string[]> = {}
    const mine = new Set(files)
    for (const member of this.deps.roster().members) {
      if (member.name === name || !member.worktree) continue
      for (const path of await this.changedFiles(member.name)) {
        if (!mine.has(path)) continue
        const list = Object.hasOwn(overlaps, path) ? overlaps[path] : undefined
        if (list) list.push(member.name)
        else overlaps[path] = [member.name]
      }
    }
    return overlaps
  }

  /** Everything in the teammate's worktree now (a snapshot commit), or its branch's tip. */
  private async tip(name: string): Promise<string> {
    return this.git.exists(name) ? this.git.snapshot(name) : this.commitOf(teammateBranch(name))
  }

  private async mergeBase(base: string, to: string, fallback: string): Promise<string> {
    const result = await this.git.git.run(this.deps.workspace, ['merge-base', base, to])
    return result.status === 0 ? result.stdout.trim() : fallback
  }

  /** One of the app's refs, or null; a ref moved by anyone else is said in `notes`. */
  private async appRefNoted(ref: string, notes: string[]): Promise<string | null> {
    const found = await this.git.appRef(ref)
    if (found.moved)
      notes.push(
        `${ref} was moved by something other than Agent Teams, so it is not used: the diff starts where the branch does.`,
      )
    return found.commit
  }

  private async commitOf(revision: string): Promise<string> {
    const result = await this.git.git.run(this.deps.workspace, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${revision}^{commit}`,
    ])
    if (result.status !== 0)
      throw new TeamError('not-found', `"${revision}" is not a commit in this repository.`)
    return result.stdout.trim()
  }

  private member(name: string): Member | undefined {
    return this.deps.roster().members.find((member) => member.name === name)
  }

  private required(name: string): MemberWorktree {
    if (!this.member(name)) throw new TeamError('unknown-agent', `"${name}" is not on the roster.`)
    const record = this.record(name)
    if (record === null)
      throw new TeamError(
        'no-worktree',
        `${name} works in the shared workspace: it has no branch of its own to review.`,
      )
    return record
  }
}
