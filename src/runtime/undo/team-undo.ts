import { TeamError } from '../../shared/errors'
import type { CheckpointPolicy, UndoPlan, UndoResult, UndoTarget } from '../../shared/undo'
import type { StoredCheckpoint } from './checkpoint-records'
import { coveredPathspec, outputIn } from './folder-state'
import { matchIndex, readBlobs, resetBranch, writeChanges, type PathChange } from './restore-files'
import type { TeamCheckpoints } from './team-checkpoints'
import { undoNotice } from './undo-notice'
import { UndoJournals, type UndoJournal } from './undo-journal'
import { planUndo, type PlannedUndo } from './undo-plan'

/** The fields of a transcript's `undo` record (shared/transcript.ts). */
export interface UndoRecordFields {
  readonly kind: 'undo'
  readonly undo_id: string
  readonly from_seq: number
  readonly to_seq: number
  readonly checkpoint: number
  readonly redo_of?: string
  readonly restored: string[]
  readonly kept: string[]
  readonly reset_to: string | null
  readonly by: string
}

/** What an undo needs of the team around it: the running host's, or the CLI's on the files. */
export interface UndoPorts {
  readonly checkpoints: TeamCheckpoints
  readonly dataFolder: string
  /** The seq of the last record of `name`'s transcript. */
  readonly transcriptEnd: (name: string) => number
  readonly hasUndoRecord: (name: string, undoId: string) => boolean
  readonly appendUndoRecord: (name: string, record: UndoRecordFields) => void
  /** Puts the notice in `name`'s inbox (from the person, marked `isUndoNotice`). */
  readonly notify: (name: string, content: string, undoId: string) => void
  /** Why `name`'s folder may not be restored now (it is working), or null. */
  readonly busy: (name: string) => string | null
  /** Runs `work` with `name`'s tool calls held back (its git queue). */
  readonly exclusive: <T>(name: string, work: () => Promise<T>) => Promise<T>
  readonly newId: () => string
  /** Called after each file an undo writes or removes (a crash test stops the process here). */
  readonly afterEachFile?: () => void
}

/** An undo asked for: the plan it must still match, and the files the person lets it overwrite. */
export interface UndoRequest {
  readonly name: string
  readonly target: UndoTarget
  readonly planId: string
  readonly overwrite?: readonly string[]
  readonly reason?: string
  readonly by: string
  /** Set by a redo: the undo it takes back. */
  readonly redoOf?: string
  /** The undo's id, when the caller chose it (the CLI, to find its journal). */
  readonly undoId?: string
}

/**
 * Undo of what an agent did, over its checkpoints (team-checkpoints.ts): the plan (a dry run),
 * the undo itself (journal, files, branch, transcript mark, inbox notice), its redo, and the
 * recovery of an undo a crash cut short. Used by the running team and by the CLI alike.
 */
export class TeamUndo {
  readonly journals: UndoJournals

  constructor(private readonly ports: UndoPorts) {
    this.journals = new UndoJournals(ports.dataFolder)
  }

  get checkpoints(): TeamCheckpoints {
    return this.ports.checkpoints
  }

  list(name: string): { checkpoints: StoredCheckpoint[]; policy: CheckpointPolicy } {
    const records = this.ports.checkpoints.records
    return { checkpoints: records.list(name), policy: records.policy() }
  }

  async setPolicy(policy: CheckpointPolicy): Promise<CheckpointPolicy> {
    this.ports.checkpoints.records.setPolicy(policy)
    await this.ports.checkpoints.pruneAll()
    return policy
  }

  async plan(name: string, target: UndoTarget): Promise<UndoPlan> {
    await this.recover(name)
    return (await this.planned(name, target)).plan
  }

  async apply(request: UndoRequest): Promise<UndoResult> {
    const { name } = request
    const busy = this.ports.busy(name)
    if (busy !== null) throw new TeamError('member-working', busy)
    return this.ports.exclusive(name, async () => {
      await this.recover(name)
      const planned = await this.planned(name, request.target)
      const { plan } = planned
      if (plan.planId !== request.planId)
        throw new TeamError(
          'plan-outdated',
          `${name}'s folder, branch or transcript changed since the plan was made; look at the new plan and undo again.`,
        )
      if (plan.commits.action === 'refused')
        throw new TeamError('undo-refused', `Not undone: ${plan.commits.reason ?? ''}`)
      const journal = await this.stage(planned, request)
      return this.finish(journal, planned)
    })
  }

  /** Takes undo `undoId` back: the folder (and branch) return to the checkpoint taken before it. */
  async redo(name: string, undoId: string, by: string): Promise<UndoResult> {
    const journal = this.journals.read(name, undoId)
    if (journal === null || journal.state !== 'done')
      throw new TeamError('not-found', `${name} has no finished undo ${undoId}.`)
    const target: UndoTarget = { by: 'checkpoint', seq: journal.before }
    const plan = await this.plan(name, target)
    return this.apply({
      name,
      target,
      planId: plan.planId,
      by,
      redoOf: undoId,
      reason: `redo of undo ${undoId}`,
    })
  }

  /** Finishes every undo of `name` (or of every agent) that a crash left half done. */
  async recover(name?: string): Promise<void> {
    for (const agent of name === undefined ? this.journals.names() : [name])
      for (const journal of this.journals.list(agent))
        if (journal.state === 'staged') await this.resume(journal)
  }

  private async planned(name: string, target: UndoTarget): Promise<PlannedUndo> {
    return planUndo(this.ports.checkpoints, name, target, this.ports.transcriptEnd(name))
  }

  /** The "before undo" checkpoint, the blobs staged and the journal written: nothing touched yet. */
  private async stage(planned: PlannedUndo, request: UndoRequest): Promise<UndoJournal> {
    const { plan, folder, entries } = planned
    const overwrite = new Set(request.overwrite ?? [])
    const kept = plan.files
      .filter((file) => file.changedBy !== null && !overwrite.has(file.path))
      .map((file) => file.path)
    const keptSet = new Set(kept)
    const chosen = [...entries.values()].filter((entry) => !keptSet.has(entry.path))
    const before = await this.ports.checkpoints.takeNow(plan.name, {
      kind: 'undo',
      turnSeq: this.ports.transcriptEnd(plan.name) + 1,
    })
    if (before === null) throw new TeamError('io', `${plan.name}'s folder could not be kept.`)
    const journal: UndoJournal = {
      v: 1,
      undo_id: request.undoId ?? this.ports.newId(),
      name: plan.name,
      state: 'staged',
      target: request.target,
      checkpoint: plan.checkpoint.seq,
      before: before.seq,
      ...(request.redoOf === undefined ? {} : { redo_of: request.redoOf }),
      writes: chosen.flatMap((entry) =>
        entry.mode === null || entry.blob === null
          ? []
          : [{ path: entry.path, mode: entry.mode, blob: entry.blob }],
      ),
      removes: chosen.filter((entry) => entry.mode === null).map((entry) => entry.path),
      kept,
      reset: planned.reset,
      turns: plan.turns,
      reason: request.reason ?? 'the person chose to undo it',
      by: request.by,
      steps: { files: false, branch: false, transcript: false, notice: false },
      at: Date.now() / 1000,
    }
    await readBlobs(
      folder,
      journal.writes.map((write) => write.blob),
      (blob, data) => this.journals.stageBlob(journal, blob, data),
    )
    this.journals.write(journal)
    return journal
  }

  /** Runs the journal's steps not done yet, each recorded as it ends; a file that fails rolls back. */
  private async finish(journal: UndoJournal, planned?: PlannedUndo): Promise<UndoResult> {
    const folder = planned?.folder ?? (await this.ports.checkpoints.folderOf(journal.name))
    if (folder === null)
      throw new TeamError(
        'no-worktree',
        `${journal.name}'s folder is gone; the undo cannot finish.`,
      )
    const notes: string[] = []
    if (!journal.steps.files) {
      const changes: PathChange[] = [
        ...journal.removes.map((path) => ({ path, mode: null })),
        ...journal.writes.map((write) => ({
          path: write.path,
          mode: write.mode,
          data: this.journals.stagedBlob(journal, write.blob),
        })),
      ]
      try {
        writeChanges(folder, changes, this.ports.afterEachFile)
      } catch (error) {
        await this.rollBack(journal, error)
        throw error
      }
      journal.steps.files = true
      this.journals.write(journal)
    }
    if (!journal.steps.branch) {
      const note = await resetBranch(folder, journal.reset)
      if (note !== null) notes.push(note)
      const paths = [...journal.removes, ...journal.writes.map((write) => write.path)]
      await matchIndex(folder, note === null ? journal.reset : null, paths).catch(
        (error: unknown) => notes.push(`its index was left as it was (${String(error)})`),
      )
      journal.steps.branch = true
      this.journals.write(journal)
    }
    const restored = [...journal.removes, ...journal.writes.map((write) => write.path)].sort()
    const resetTo = journal.reset !== null && notes.length === 0 ? journal.reset.to : null
    if (!journal.steps.transcript) {
      if (!this.ports.hasUndoRecord(journal.name, journal.undo_id))
        this.ports.appendUndoRecord(journal.name, {
          kind: 'undo',
          undo_id: journal.undo_id,
          from_seq: journal.turns.from,
          to_seq: journal.turns.to,
          checkpoint: journal.checkpoint,
          ...(journal.redo_of === undefined ? {} : { redo_of: journal.redo_of }),
          restored,
          kept: journal.kept,
          reset_to: resetTo,
          by: journal.by,
        })
      journal.steps.transcript = true
      this.journals.write(journal)
    }
    if (!journal.steps.notice) {
      this.ports.notify(journal.name, undoNotice(journal, restored, resetTo), journal.undo_id)
      journal.steps.notice = true
    }
    journal.state = 'done'
    if (notes.length > 0) journal.note = notes.join('; ')
    this.journals.write(journal)
    this.journals.dropBlobs(journal)
    // The folder as the undo left it: what changes after this is not the agent's doing.
    await this.ports.checkpoints.takeNow(journal.name, {
      kind: 'rest',
      turnSeq: this.ports.transcriptEnd(journal.name) + 1,
    })
    return {
      undoId: journal.undo_id,
      restored,
      kept: journal.kept,
      resetTo,
      summary: summaryOf(journal, restored, resetTo, notes),
    }
  }

  /** A half-done undo found at the next open: finished, so the folder is in the new state. */
  private async resume(journal: UndoJournal): Promise<void> {
    await this.ports.exclusive(journal.name, async () => {
      try {
        await this.finish(journal)
      } catch {
        // finish rolled the files back and recorded it; the person sees it in the journal.
      }
    })
  }

  /** The files back to the `before` checkpoint: the old state, whole. */
  private async rollBack(journal: UndoJournal, cause: unknown): Promise<void> {
    const folder = await this.ports.checkpoints.folderOf(journal.name)
    const before = this.ports.checkpoints.records.find(journal.name, journal.before)
    if (folder !== null && before !== null) {
      const now = await this.ports.checkpoints.snapshot(journal.name)
      if (now !== null) {
        const raw = await outputIn(folder, [
          'diff',
          '--raw',
          '-z',
          '--no-renames',
          '--no-abbrev',
          now.state.commit,
          before.commit,
          '--',
          ...coveredPathspec(folder),
        ])
        const fields = raw.split('\0')
        const changes: PathChange[] = []
        const blobs = new Map<string, Buffer>()
        const pending: { path: string; mode: string; blob: string }[] = []
        for (let index = 0; index + 1 < fields.length; index += 2) {
          const [, mode = '', , blob = ''] = (fields[index] ?? '').slice(1).split(' ')
          const path = fields[index + 1] ?? ''
          if (mode === '160000') continue
          if (/^0+$/.test(mode)) changes.push({ path, mode: null })
          else pending.push({ path, mode, blob })
        }
        await readBlobs(
          folder,
          pending.map((entry) => entry.blob),
          (blob, data) => blobs.set(blob, data),
        )
        for (const entry of pending)
          changes.push({
            path: entry.path,
            mode: entry.mode,
            data: blobs.get(entry.blob) ?? Buffer.alloc(0),
          })
        writeChanges(folder, changes)
      }
    }
    journal.state = 'rolled-back'
    journal.note = `rolled back: ${cause instanceof Error ? cause.message : String(cause)}`
    this.journals.write(journal)
    this.journals.dropBlobs(journal)
  }
}

function summaryOf(
  journal: UndoJournal,
  restored: readonly string[],
  resetTo: string | null,
  notes: readonly string[],
): string {
  const what =
    journal.redo_of === undefined ? 'Undone' : `Redone (undo ${journal.redo_of} taken back)`
  const parts = [
    `${what}: ${journal.name}'s folder is back to checkpoint ${journal.checkpoint}; ${restored.length} file${restored.length === 1 ? '' : 's'} restored`,
  ]
  if (journal.kept.length > 0)
    parts.push(`kept as someone else left them: ${journal.kept.join(', ')}`)
  if (resetTo !== null) parts.push(`its branch was reset to ${resetTo.slice(0, 12)}`)
  parts.push(...notes)
  parts.push(`redo with: agent-teams undo ${journal.name} --redo ${journal.undo_id}`)
  return `${parts.join('; ')}.`
}
