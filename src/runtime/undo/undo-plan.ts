import { createHash } from 'node:crypto'
import { TeamError } from '../../shared/errors'
import { USER } from '../../shared/names'
import type { UndoFile, UndoPlan, UndoTarget } from '../../shared/undo'
import type { StoredCheckpoint } from './checkpoint-records'
import { judgeCommits, type CommitsVerdict } from './commits-rule'
import { coveredPathspec, outputIn, type FolderState, type UndoFolder } from './folder-state'
import type { TeamCheckpoints } from './team-checkpoints'

/** One path an undo writes back or removes, as the checkpoint holds it. */
export interface RestoreEntry {
  readonly path: string
  /** git's mode in the checkpoint (100644, 100755, 120000), or null: the path goes. */
  readonly mode: string | null
  readonly blob: string | null
}

/** A plan with what applying it needs: the folder, the state it was made from, each path's entry. */
export interface PlannedUndo {
  readonly plan: UndoPlan
  readonly folder: UndoFolder
  readonly now: FolderState
  readonly checkpoint: StoredCheckpoint
  readonly entries: ReadonlyMap<string, RestoreEntry>
  readonly reset: CommitsVerdict['reset']
}

/** The most paths listed as not covered (ignored); the rest are counted in the last line. */
const MAX_NOT_COVERED = 1000
/** A patch longer than this is cut (the files are restored whole all the same). */
const MAX_PATCH = 256 * 1024
/** Another agent's turns looked at for the files it changed, at most. */
const MAX_OTHER_TURNS = 200

/** The checkpoint an undo of `target` goes back to, from `name`'s record (oldest first). */
export function targetCheckpoint(
  name: string,
  list: readonly StoredCheckpoint[],
  target: UndoTarget,
): StoredCheckpoint {
  if (target.by === 'checkpoint') {
    const found = list.find((checkpoint) => checkpoint.seq === target.seq)
    if (found === undefined)
      throw new TeamError(
        'not-found',
        `${name} has no checkpoint ${target.seq} (it was never taken, or the policy dropped it); see "agent-teams checkpoints ${name}".`,
      )
    return found
  }
  const turns = list.filter(
    (checkpoint) => (checkpoint.kind ?? 'turn') === 'turn' && checkpoint.opensTurn === true,
  )
  if (target.by === 'turns') {
    const found = turns.at(-target.turns)
    if (found === undefined || target.turns > turns.length)
      throw new TeamError(
        'not-found',
        `${name} has checkpoints for ${turns.length} turn${turns.length === 1 ? '' : 's'}, not ${target.turns}.`,
      )
    return found
  }
  const found = list.find(
    (checkpoint) => checkpoint.task === target.task && (checkpoint.kind ?? 'turn') === 'turn',
  )
  if (found === undefined)
    throw new TeamError(
      'not-found',
      `${name} has no checkpoint taken while it worked on task #${target.task}.`,
    )
  return found
}

/**
 * What undoing `target` would do to `name`'s folder now: the diff from now back to the
 * checkpoint, the files someone else changed since (never overwritten unless asked), what the
 * checkpoint does not cover, and the commits rule. `planId` names all of it.
 */
export async function planUndo(
  checkpoints: TeamCheckpoints,
  name: string,
  target: UndoTarget,
  transcriptEnd: number,
): Promise<PlannedUndo> {
  const snapshot = await checkpoints.snapshot(name)
  if (snapshot === null)
    throw new TeamError(
      'not-a-repository',
      `${name} works in a folder that is not a git repository: it has no checkpoints to undo to.`,
    )
  const { folder, state: now } = snapshot
  const list = checkpoints.records.list(name)
  const checkpoint = targetCheckpoint(name, list, target)
  const entries = await restoreEntries(folder, now.commit, checkpoint.commit)
  const paths = [...entries.keys()]
  const patches = await patchesOf(folder, now.commit, checkpoint.commit)
  const changedBy = await othersChanges(checkpoints, folder, list, checkpoint, now, new Set(paths))
  const files: UndoFile[] = paths.map((path) => {
    const entry = entries.get(path)
    return {
      path,
      change: entry?.mode === null ? 'D' : (patches.get(path)?.added ?? false) ? 'A' : 'M',
      patch: patches.get(path)?.patch ?? '',
      changedBy: changedBy.get(path) ?? null,
    }
  })
  const verdict = await judgeCommits(folder, checkpoint.head, now.head)
  const notCovered = await ignoredPaths(folder)
  const turns = { from: checkpoint.turnSeq, to: Math.max(checkpoint.turnSeq, transcriptEnd) }
  const planId = createHash('sha256')
    .update(
      JSON.stringify([
        name,
        target,
        checkpoint.seq,
        checkpoint.commit,
        now.tree,
        now.head,
        verdict.reset,
        verdict.commits.action,
        files.map((file) => [file.path, file.changedBy]),
        transcriptEnd,
      ]),
    )
    .digest('hex')
    .slice(0, 32)
  const { tree: _tree, ...shown } = checkpoint
  const plan: UndoPlan = {
    name,
    target,
    checkpoint: shown,
    files,
    turns,
    commits: verdict.commits,
    notCovered,
    planId,
  }
  return { plan, folder, now, checkpoint, entries, reset: verdict.reset }
}

/** `git diff --raw` from `from` to `to`: what each path becomes (mode and blob, or gone). */
async function restoreEntries(
  folder: UndoFolder,
  from: string,
  to: string,
): Promise<Map<string, RestoreEntry>> {
  const raw = await outputIn(folder, [
    'diff',
    '--raw',
    '-z',
    '--no-renames',
    '--no-abbrev',
    '--no-ext-diff',
    '--no-textconv',
    from,
    to,
    '--',
    ...coveredPathspec(folder),
  ])
  const fields = raw.split('\0')
  const entries = new Map<string, RestoreEntry>()
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [, newMode = '', , newBlob = ''] = (fields[index] ?? '').slice(1).split(' ')
    const path = fields[index + 1] ?? ''
    // A submodule (160000) is not a file the app writes: left as it is.
    if (newMode === '160000') continue
    const gone = /^0+$/.test(newMode)
    entries.set(path, { path, mode: gone ? null : newMode, blob: gone ? null : newBlob })
  }
  return entries
}

/** Each path's unified patch from `from` to `to`, and whether the path is new there. */
async function patchesOf(
  folder: UndoFolder,
  from: string,
  to: string,
): Promise<Map<string, { patch: string; added: boolean }>> {
  const text = await outputIn(folder, [
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    from,
    to,
    '--',
    ...coveredPathspec(folder),
  ])
  const names = await outputIn(folder, [
    'diff',
    '--name-status',
    '-z',
    '--no-renames',
    from,
    to,
    '--',
    ...coveredPathspec(folder),
  ])
  const fields = names.split('\0')
  const parts = text.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '))
  const patches = new Map<string, { patch: string; added: boolean }>()
  for (let index = 0, part = 0; index + 1 < fields.length; index += 2, part++) {
    const patch = parts[part] ?? ''
    patches.set(fields[index + 1] ?? '', {
      patch: patch.length > MAX_PATCH ? `${patch.slice(0, MAX_PATCH)}\n… (cut)\n` : patch,
      added: fields[index] === 'A',
    })
  }
  return patches
}

/**
 * The paths among `paths` someone else changed since the checkpoint, and who: what changed while
 * the agent rested (from each `rest` checkpoint to the checkpoint after it, or to now) is the
 * person's, or another agent's when that agent was working in the same folder then; in the
 * shared workspace, what another agent changed during its own turns is that agent's.
 */
async function othersChanges(
  checkpoints: TeamCheckpoints,
  folder: UndoFolder,
  list: readonly StoredCheckpoint[],
  from: StoredCheckpoint,
  now: FolderState,
  paths: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const changed = new Map<string, string>()
  const others = await otherAgentsChanges(checkpoints, folder, from.at, paths)
  const since = list.filter((checkpoint) => checkpoint.seq >= from.seq)
  for (const [index, checkpoint] of since.entries()) {
    if (checkpoint.kind !== 'rest') continue
    const next = since[index + 1]
    for (const path of await changedBetween(folder, checkpoint.commit, next?.commit ?? now.commit))
      if (paths.has(path)) changed.set(path, others.get(path) ?? USER)
  }
  for (const [path, agent] of others) if (!changed.has(path)) changed.set(path, agent)
  return changed
}

/** In the shared workspace: the paths other agents working there changed in their turns since. */
async function otherAgentsChanges(
  checkpoints: TeamCheckpoints,
  folder: UndoFolder,
  since: number,
  paths: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const changed = new Map<string, string>()
  if (folder.repository !== undefined) return changed
  for (const other of checkpoints.records.names()) {
    if (other === folder.name) continue
    const theirs = await checkpoints.folderOf(other)
    if (theirs === null || theirs.repository !== undefined) continue
    const list = checkpoints.records.list(other)
    let looked = 0
    for (const [index, checkpoint] of list.entries()) {
      const next = list[index + 1]
      if (next === undefined || next.at < since || (checkpoint.kind ?? 'turn') !== 'turn') continue
      if (++looked > MAX_OTHER_TURNS) break
      for (const path of await changedBetween(folder, checkpoint.commit, next.commit))
        if (paths.has(path) && !changed.has(path)) changed.set(path, other)
    }
  }
  return changed
}

async function changedBetween(folder: UndoFolder, from: string, to: string): Promise<string[]> {
  if (from === to) return []
  const args = ['diff', '--name-only', '-z', '--no-renames', from, to, '--']
  return (await outputIn(folder, [...args, ...coveredPathspec(folder)]))
    .split('\0')
    .filter((path) => path !== '')
}

/** The ignored paths in the folder (folders collapsed): what checkpoints leave out. */
async function ignoredPaths(folder: UndoFolder): Promise<string[]> {
  const listed = await outputIn(
    folder,
    [
      'ls-files',
      '-z',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--directory',
      '--full-name',
      '--',
      ...coveredPathspec(folder),
    ],
    { env: { GIT_INDEX_FILE: folder.indexFile } },
  )
  const paths = listed.split('\0').filter((path) => path !== '')
  if (paths.length <= MAX_NOT_COVERED) return paths
  return [...paths.slice(0, MAX_NOT_COVERED), `… and ${paths.length - MAX_NOT_COVERED} more`]
}
