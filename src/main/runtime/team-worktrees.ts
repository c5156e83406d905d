import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import {
  teammateBranch,
  type BranchAction,
  type DiffScope,
  type MemberWorktree,
  type MergeResult,
  type ReviewDiff,
  type WorktreeView,
} from '../../shared/worktree'
import { changedPaths, diffBetween } from './git/diff'
import { runGit } from './git/git'
import { mergeBranch } from './git/merge'
import { TaskMarks, taskRef } from './git/task-marks'
import { turnStartRef, Worktrees } from './git/worktrees'
import type { Member, RosterFile } from '../../shared/roster'

/** Told when a teammate's branch was merged: the task board moves its tasks in review to done. */
export type MergeListener = (
  name: string,
  result: Extract<MergeResult, { outcome: 'merged' }>,
) => void

export interface TeamWorktreesDependencies {
  readonly workspace: string
  /** The roster as it is now (the running team's, or config.json read by the CLI). */
  readonly roster: () => RosterFile
  /** Changes config.json (the team's worktree default); absent where only reading. */
  readonly updateRoster?: (change: (draft: RosterFile) => void) => void
  /** Sends the person's message to a teammate (review comments, rejections, hand-backs). */
  readonly sendToTeammate: (to: string, content: string, extra: Record<string, unknown>) => void
}

/**
 * The team's side of the worktrees: which teammate has one (config.json's `worktree`), where
 * its tools run, and the review loop over its branch (diff, comments, merge, reject).
 */
export class TeamWorktrees {
  readonly git: Worktrees
  private readonly mergeListeners = new Set<MergeListener>()
  /** Changed files per teammate, until its next tool call or status change. */
  private readonly changed = new Map<string, string[]>()

  /** Where each task's work begins and ends on its owner's branch (the "task" diff). */
  readonly taskMarks: TaskMarks

  constructor(private readonly deps: TeamWorktreesDependencies) {
    this.git = new Worktrees(deps.workspace)
    this.taskMarks = new TaskMarks({
      workspace: deps.workspace,
      hasWorktree: (name) =>
        this.record(name) !== null && existsSync(join(this.git.folder(name), '.git')),
      snapshot: (name) => this.git.snapshot(name),
    })
  }

  /** The hook the task board wires: called after every successful merge. */
  onMerged(listener: MergeListener): () => void {
    this.mergeListeners.add(listener)
    return () => this.mergeListeners.delete(listener)
  }

  /** The member's worktree record, or null when it works in the shared workspace. */
  record(name: string): MemberWorktree | null {
    return this.member(name)?.worktree ?? null
  }

  /** The folder `name`'s file tools and bash work in. */
  toolRoot(name: string): string {
    return this.record(name) === null ? this.deps.workspace : this.git.root(name)
  }

  /** Whether a spawn gives a worktree when it does not say (the team's setting, and git). */
  get defaultOn(): boolean {
    return this.deps.roster().worktrees !== false
  }

  setDefault(on: boolean): void {
    if (!this.deps.updateRoster)
      throw new TeamError('invalid-argument', 'The team must be running to change its settings.')
    this.deps.updateRoster((draft) => {
      draft.worktrees = on
    })
  }

  /**
   * Decides `name`'s worktree at a spawn: kept when it has one, made when asked (or by
   * default in a git repository), else none; and the note the spawn's answer carries.
   */
  atSpawn(
    name: string,
    wanted: boolean | undefined,
  ): { record: MemberWorktree | null; note: string } {
    const existing = this.record(name)
    const branch = teammateBranch(name)
    if (existing !== null) {
      this.git.ensure(name, existing)
      return { record: existing, note: `works in its worktree on ${branch} (kept)` }
    }
    if (wanted === false || (wanted === undefined && !this.defaultOn))
      return { record: null, note: 'works in the shared workspace (worktree off)' }
    if (!this.git.available())
      return {
        record: null,
        // Said when a worktree was asked for; by default a plain folder is simply shared.
        note:
          wanted === true
            ? 'works in the shared workspace: the workspace is not a git repository with a commit'
            : '',
      }
    const record = this.git.create(name)
    return { record, note: `works in its own worktree on ${branch} from ${record.base}` }
  }

  /** Called when `name` starts a turn: its "last turn" diff starts here. */
  turnStarted(name: string): void {
    this.changed.delete(name)
    if (this.record(name) !== null) this.git.markTurnStart(name)
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
  diff(
    name: string,
    scope: DiffScope,
    range?: { from: string; to: string },
    task?: string,
  ): ReviewDiff {
    const record = this.required(name)
    const cwd = this.deps.workspace
    let from: string
    let to: string
    let note: string | undefined
    if (scope === 'task') {
      if (task === undefined)
        throw new TeamError('invalid-argument', 'A task diff needs the task id, such as 3.')
      // A task still in progress ends at the worktree as it is now; one never marked (taken
      // before its owner had a worktree) starts where the branch does.
      const end = taskRef(name, task, 'end')
      to = this.refExists(end) ? end : this.tip(name)
      const start = taskRef(name, task, 'start')
      if (this.refExists(start)) from = start
      else {
        from = this.mergeBase(record.base, to, record.base_commit)
        note = `Where task #${task} began was not recorded (it was claimed before this version, or while the app was closed), so this is the whole branch up to ${to === end ? 'its completion' : 'now'}.`
      }
    } else if (scope === 'range') {
      if (!range)
        throw new TeamError('invalid-argument', 'A range diff needs a from and a to commit.')
      from = this.commitOf(range.from)
      to = this.commitOf(range.to)
    } else {
      to = this.tip(name)
      from =
        scope === 'turn' && this.refExists(turnStartRef(name))
          ? turnStartRef(name)
          : this.mergeBase(record.base, to, record.base_commit)
    }
    const { files } = diffBetween(cwd, from, to)
    const overlaps = this.overlapsOf(
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
    return note === undefined ? diff : { ...diff, note }
  }

  /** The roster's view of every teammate with a worktree: its branch, changed files, overlaps. */
  views(): Map<string, WorktreeView> {
    const views = new Map<string, WorktreeView>()
    for (const member of this.deps.roster().members) {
      const record = member.worktree
      if (!record) continue
      const files = this.changedFiles(member.name)
      views.set(member.name, {
        branch: teammateBranch(member.name),
        base: record.base,
        changedFiles: files.length,
        overlaps: this.overlapsOf(member.name, files),
      })
    }
    return views
  }

  merge(name: string, options: { into?: string; squash?: boolean }): MergeResult {
    const record = this.required(name)
    // Its uncommitted work is committed first: not while it is still writing it.
    if (this.member(name)?.status === 'working')
      throw new TeamError(
        'member-working',
        `${name} is working right now; wait until it is idle, or stop it, then merge.`,
      )
    const result = mergeBranch(this.git, name, {
      into: options.into ?? record.base,
      squash: options.squash === true,
    })
    this.changed.clear()
    if (result.outcome === 'merged')
      for (const listener of this.mergeListeners) listener(name, result)
    return result
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
    if (!this.member(name))
      throw new TeamError('unknown-recipient', `"${name}" is not on the roster.`)
    this.deps.sendToTeammate(
      name,
      `Review comment on ${comment.file}, line ${comment.line}: ${comment.text}`,
      { review: { kind: 'comment', file: comment.file, line: comment.line } },
    )
  }

  /**
   * Removes `name`'s worktree when the teammate leaves. Work its base does not hold is never
   * deleted silently: without an action the removal is refused, saying what there is.
   */
  remove(name: string, action: BranchAction | undefined): string {
    const record = this.record(name)
    const branch = teammateBranch(name)
    if (record === null) {
      if (!this.git.hasBranch(name) || action === 'keep' || action === undefined) return ''
    }
    const base = record?.base ?? this.git.currentBranch() ?? 'HEAD'
    const unmerged = this.git.available() && this.git.hasUnmergedWork(name, base)
    if (unmerged && action === undefined)
      throw new TeamError(
        'unmerged-work',
        `${name}'s branch ${branch} has work that ${base} does not have. ` +
          'Choose what to do with it: keep the branch, merge it, or delete it.',
      )
    if (action === 'merge' && unmerged) {
      const result = this.merge(name, {})
      if (result.outcome === 'conflict')
        throw new TeamError(
          'unmerged-work',
          `${branch} conflicts with ${base} in ${result.files.join(', ')}; ` +
            `nothing was removed. Resolve it, or keep the branch.`,
        )
    }
    this.git.remove(name, { deleteBranch: action === 'delete' || action === 'merge' })
    this.changed.delete(name)
    if (action === 'keep' || (action === undefined && this.git.hasBranch(name)))
      return `its branch ${branch} is kept`
    return action === 'merge'
      ? `${branch} was merged into ${base} and deleted`
      : `${branch} was deleted`
  }

  /** The paths `name` changed against its base (cached until its next tool call). */
  changedFiles(name: string): string[] {
    const cached = this.changed.get(name)
    if (cached) return cached
    const record = this.record(name)
    if (record === null || !existsSync(join(this.git.folder(name), '.git'))) return []
    const cwd = this.deps.workspace
    const to = this.tip(name)
    const files = changedPaths(cwd, this.mergeBase(record.base, to, record.base_commit), to)
    this.changed.set(name, files)
    return files
  }

  /** For each of `files`, the other teammates whose branches change it too. */
  private overlapsOf(name: string, files: readonly string[]): Record<string, string[]> {
    const overlaps: Record<string, string[]> = {}
    const mine = new Set(files)
    for (const member of this.deps.roster().members) {
      if (member.name === name || !member.worktree) continue
      for (const path of this.changedFiles(member.name)) {
        if (!mine.has(path)) continue
        const list = Object.hasOwn(overlaps, path) ? overlaps[path] : undefined
        if (list) list.push(member.name)
        else overlaps[path] = [member.name]
      }
    }
    return overlaps
  }

  /** Everything in the teammate's worktree now (a snapshot commit), or its branch's tip. */
  private tip(name: string): string {
    return existsSync(join(this.git.folder(name), '.git'))
      ? this.git.snapshot(name)
      : this.commitOf(teammateBranch(name))
  }

  private mergeBase(base: string, to: string, fallback: string): string {
    const result = runGit(this.deps.workspace, ['merge-base', base, to])
    return result.status === 0 ? result.stdout.trim() : fallback
  }

  private refExists(ref: string): boolean {
    return runGit(this.deps.workspace, ['rev-parse', '--verify', '--quiet', ref]).status === 0
  }

  private commitOf(revision: string): string {
    const result = runGit(this.deps.workspace, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${revision}^{commit}`,
    ])
    if (result.status !== 0)
      throw new TeamError('invalid-argument', `"${revision}" is not a commit in this repository.`)
    return result.stdout.trim()
  }

  private member(name: string): Member | undefined {
    return this.deps.roster().members.find((member) => member.name === name)
  }

  private required(name: string): MemberWorktree {
    if (!this.member(name))
      throw new TeamError('unknown-recipient', `"${name}" is not on the roster.`)
    const record = this.record(name)
    if (record === null)
      throw new TeamError(
        'invalid-argument',
        `${name} works in the shared workspace: it has no branch of its own to review.`,
      )
    return record
  }
}
