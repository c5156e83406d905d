import { randomBytes } from 'node:crypto'
import { copyFileSync, rmSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import { teammateBranch } from '../../shared/worktree'
import type { Checkpoint } from '../../shared/undo'
import type { TeamWorktrees } from '../git/team-worktrees'
import { CheckpointRecords, checkpointRef, type StoredCheckpoint } from './checkpoint-records'
import { IndexTrees, snapshotFolder, type FolderState, type UndoFolder } from './folder-state'

export interface TeamCheckpointsDependencies {
  readonly worktrees: TeamWorktrees
  /** The workspace's folder in the app's data. */
  readonly dataFolder: string
  /** The task `name` has in progress now, or null. */
  readonly taskOf: (name: string) => string | null
  /** Seconds since the epoch. */
  readonly now: () => number
  /** Told of a checkpoint that failed (the turn goes on without it). */
  readonly report?: (error: unknown) => void
}

/** What a checkpoint is taken for (`Checkpoint.kind`), and the transcript seq it stands before. */
export interface CheckpointRequest {
  readonly kind: NonNullable<Checkpoint['kind']>
  readonly turnSeq: number
  readonly opensTurn?: boolean
  /**
   * Nothing that could change the folder ran since the last checkpoint was asked for (the model
   * call between made no tool call, or only read-only ones): the last checkpoint is recorded
   * again under the new seq, without reading the folder. Ignored when the last one is not a turn's.
   */
  readonly repeat?: boolean
}

/**
 * Every agent's checkpoints: a snapshot of its folder (its worktree, or the workspace it works
 * in when that is a git repository) before each model turn, as it goes to rest, and before an
 * undo; kept in hidden refs `refs/agent-teams/checkpoints/<name>/<seq>` and in the app's own
 * record (checkpoint-records.ts), within the person's policy. Taken in the agent's git queue,
 * so its next tool call waits for it (team-worktrees.ts).
 */
export class TeamCheckpoints {
  readonly records: CheckpointRecords
  private workspaceFolder: Promise<{ top: string; scope: string } | null> | null = null
  /** Agents whose last checkpoint failed: their record's last one may be older than the turn. */
  private readonly failed = new Set<string>()
  /** The trees the app's indexes held when last written (write-tree is not run again). */
  private readonly indexTrees = new IndexTrees()
  /** Repeated checkpoints whose refs are not written yet, per agent. */
  private readonly unwrittenRefs = new Map<string, StoredCheckpoint[]>()

  constructor(private readonly deps: TeamCheckpointsDependencies) {
    this.records = new CheckpointRecords(deps.dataFolder)
  }

  /** Queues a checkpoint of `name`'s folder; a failure is reported, never thrown (a turn goes on). */
  take(name: string, request: CheckpointRequest): Promise<void> {
    return this.deps.worktrees
      .enqueue(name, () => this.takeNow(name, request))
      .then(
        () => undefined,
        (error: unknown) => {
          this.failed.add(name)
          this.report(error)
        },
      )
  }

  /**
   * A checkpoint of `name`'s folder now (call it inside `name`'s queue); null when the folder
   * has no git to keep one in.
   */
  async takeNow(name: string, request: CheckpointRequest): Promise<StoredCheckpoint | null> {
    const folder = await this.folderOf(name)
    if (folder === null) return null
    const last = this.records.last(name)
    const repeated =
      request.repeat === true &&
      !this.failed.has(name) &&
      last !== null &&
      (last.kind ?? 'turn') === 'turn'
    const state = repeated ? last : await snapshotFolder(folder, last, this.indexTrees)
    const checkpoint: StoredCheckpoint = {
      seq: this.records.nextSeq(name),
      turnSeq: Math.max(1, request.turnSeq),
      at: this.deps.now(),
      commit: state.commit,
      tree: state.tree,
      head: state.head,
      task: this.deps.taskOf(name),
      kind: request.kind,
      ...(request.opensTurn === true ? { opensTurn: true } : {}),
    }
    const dropped = this.records.add(name, checkpoint, checkpoint.at)
    // A repeat's commit is kept alive by the ref of the checkpoint it repeats: its own ref waits
    // for the agent's next ref write (writeRefs), which a drop of that checkpoint is.
    if (repeated && dropped.length === 0)
      this.unwrittenRefs.set(name, [...this.unwritten(name), checkpoint])
    else await this.writeRefs(folder, name, [checkpoint], dropped)
    this.failed.delete(name)
    return checkpoint
  }

  /**
   * A snapshot of `name`'s folder now, kept nowhere (a plan compares it with a checkpoint).
   * Written with a copy of the app's index for `name`: another process (the CLI beside a
   * running team) may be taking a checkpoint with that index at the same moment.
   */
  async snapshot(name: string): Promise<{ folder: UndoFolder; state: FolderState } | null> {
    const folder = await this.folderOf(name)
    if (folder === null) return null
    const copy = `${folder.indexFile}.${process.pid}.${randomBytes(4).toString('hex')}`
    try {
      copyFileSync(folder.indexFile, copy)
    } catch {
      // No index yet: the snapshot starts from HEAD's tree in the copy's place.
    }
    try {
      const state = await snapshotFolder({ ...folder, indexFile: copy }, this.records.last(name))
      return { folder, state }
    } finally {
      rmSync(copy, { force: true })
    }
  }

  /**
   * What `name`'s checkpoints take on disk beyond what its branches hold: the objects only they
   * keep alive (git's own estimate, `rev-list --disk-usage`).
   */
  async diskUsage(name: string): Promise<number> {
    const commits = [...new Set(this.records.list(name).map((checkpoint) => checkpoint.commit))]
    const folder = await this.folderOf(name)
    if (folder === null || commits.length === 0) return 0
    const result = await folder.git.run(
      folder.refsCwd,
      ['rev-list', '--objects', '--disk-usage', '--stdin', '--not', '--branches'],
      { input: `${commits.join('\n')}\n` },
    )
    return result.status === 0 ? Number.parseInt(result.stdout.trim(), 10) || 0 : 0
  }

  /** Drops what the policy no longer keeps, for every agent (after the policy changed). */
  async pruneAll(): Promise<void> {
    for (const name of this.records.names()) {
      const dropped = this.records.pruneNow(name, this.deps.now())
      if (dropped.length === 0) continue
      const folder = await this.folderOf(name)
      if (folder !== null) await this.writeRefs(folder, name, [], dropped)
    }
  }

  /**
   * `name`'s folder: its worktree as the app recorded it, else the workspace when that is a git
   * repository (and was one when the team opened); null when there is no git to use.
   */
  async folderOf(name: string): Promise<UndoFolder | null> {
    const worktrees = this.deps.worktrees
    const git = worktrees.git
    const base = {
      name,
      git: git.git,
      refsCwd: git.workspace,
      indexFile: this.records.indexFile(name),
    }
    if (worktrees.record(name) !== null) {
      const record = git.record(name)
      if (record === null || !git.exists(name)) return null
      return {
        ...base,
        cwd: record.folder,
        repository: { gitDir: record.git_dir, workTree: record.folder },
        top: record.folder,
        scope: '',
        branch: `refs/heads/${teammateBranch(name)}`,
      }
    }
    const place = await this.workspacePlace()
    if (place === null) return null
    return { ...base, cwd: git.workspace, top: place.top, scope: place.scope, branch: null }
  }

  private workspacePlace(): Promise<{ top: string; scope: string } | null> {
    this.workspaceFolder ??= (async () => {
      const git = this.deps.worktrees.git
      if (!(await git.available().catch(() => false))) return null
      const [top = '', scope = ''] = (
        await git.git.output(git.workspace, ['rev-parse', '--show-toplevel', '--show-prefix'])
      ).split('\n')
      return { top: top.trim(), scope: scope.trim() }
    })()
    return this.workspaceFolder
  }

  private async writeRefs(
    folder: UndoFolder,
    name: string,
    added: readonly StoredCheckpoint[],
    dropped: readonly StoredCheckpoint[],
  ): Promise<void> {
    const droppedSeqs = new Set(dropped.map((checkpoint) => checkpoint.seq))
    const droppedCommits = new Set(dropped.map((checkpoint) => checkpoint.commit))
    // Kept checkpoints that share a dropped one's commit (repeats) hold it from now on.
    const holders = this.records
      .list(name)
      .filter((checkpoint) => droppedCommits.has(checkpoint.commit))
    const unwritten = this.unwritten(name)
    const updates = new Map<number, StoredCheckpoint>()
    for (const checkpoint of [...unwritten, ...holders, ...added])
      if (!droppedSeqs.has(checkpoint.seq)) updates.set(checkpoint.seq, checkpoint)
    const lines = [
      ...[...updates.values()].map(
        (checkpoint) => `update ${checkpointRef(name, checkpoint.seq)} ${checkpoint.commit}`,
      ),
      ...dropped.map((checkpoint) => `delete ${checkpointRef(name, checkpoint.seq)}`),
    ]
    if (lines.length === 0) return
    await folder.git.output(folder.refsCwd, ['update-ref', '--stdin'], {
      input: `${lines.join('\n')}\n`,
    })
    // Repeats taken while this was written wait for the next write.
    const later = this.unwritten(name).filter((checkpoint) => !unwritten.includes(checkpoint))
    if (later.length > 0) this.unwrittenRefs.set(name, later)
    else this.unwrittenRefs.delete(name)
  }

  private unwritten(name: string): readonly StoredCheckpoint[] {
    return this.unwrittenRefs.get(name) ?? []
  }

  private report(error: unknown): void {
    // The team closed before the checkpoint's turn in the queue: no turn follows it either.
    if (error instanceof TeamError && error.code === 'team-closed') return
    if (this.deps.report !== undefined) this.deps.report(error)
    else
      process.stderr.write(
        `agent-teams: a checkpoint failed: ${error instanceof Error ? error.message : String(error)}\n`,
      )
  }
}
