import { existsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { TeamError } from '../../shared/errors'
import { ensurePrivateFolder } from '../fs/app-folders'
import { teammateIdentity, type Git, type GitCallOptions } from '../git/git'

/**
 * One agent's working folder as undo sees it: its own worktree (recorded by the app), or the
 * workspace when it works there. Every path comes from the app's records, never from a `.git`
 * file in the folder.
 */
export interface UndoFolder {
  readonly name: string
  readonly git: Git
  /** Where git runs for this folder. */
  readonly cwd: string
  /** The worktree's recorded git folder and work tree; absent for the workspace itself. */
  readonly repository?: GitCallOptions['repository']
  /** The top of the work tree: restored paths are relative to it. */
  readonly top: string
  /** The part of the tree covered, relative to `top` ('' or `sub/dir/`). */
  readonly scope: string
  /** The agent's own branch (`refs/heads/team/<name>`), or null: the workspace's is the person's. */
  readonly branch: string | null
  /** Where the app's refs are written (the workspace: the repository they share). */
  readonly refsCwd: string
  /** The app's temporary index for this agent's snapshots (in its data folder). */
  readonly indexFile: string
}

/** What a snapshot found: the commit of everything in the folder, its tree, and HEAD then. */
export interface FolderState {
  readonly commit: string
  readonly tree: string
  readonly head: string | null
}

/** The pathspec of what checkpoints cover: the scope, never the team's own `.team/` folder. */
export function coveredPathspec(folder: UndoFolder): string[] {
  return [`:(top,literal)${folder.scope}`, `:(top,exclude,literal)${folder.scope}.team`]
}

/**
 * Whether a failed `add` complained only that the `.team/` it was told to leave out is ignored.
 * Git counts an exclude pathspec as naming the folder, and a repository that ignores `.team/`
 * (most do) then makes `add` exit 1 after it has updated the index with everything else; any
 * other complaint is a real failure.
 */
export function onlyTeamFolderIgnored(stderr: string, scope: string): boolean {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('hint:'))
  const [first, ...paths] = lines
  return (
    first === 'The following paths are ignored by one of your .gitignore files:' &&
    paths.length > 0 &&
    paths.every((path) => path === `${scope}.team` || path.startsWith(`${scope}.team/`))
  )
}

/** `git args…` for `folder`: pointed at the recorded repository, hardened (git.ts). */
export function runIn(folder: UndoFolder, args: readonly string[], options: GitCallOptions = {}) {
  return folder.git.run(folder.cwd, args, { ...options, repository: folder.repository })
}

export function outputIn(
  folder: UndoFolder,
  args: readonly string[],
  options: GitCallOptions = {},
): Promise<string> {
  return folder.git.output(folder.cwd, args, { ...options, repository: folder.repository })
}

/**
 * Settings for the snapshot's own index: no split index or untracked cache files written beside
 * it or in the repository, whatever the repository's configuration says; and the fastest zlib
 * level for the loose trees it writes (a checkpoint is on the turn's path; gc packs them).
 */
const INDEX_SETTINGS = [
  '-c',
  'core.splitIndex=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'core.looseCompression=1',
]

/**
 * The changed files' blobs are stored uncompressed: zlib, even at its fastest level, is most of
 * a large change's checkpoint (a megabyte of new content costs it 9 ms as text and 19 ms when
 * incompressible, against 0.4 ms stored), and the blobs stay loose only until git's gc packs
 * them, compressed, with the rest of the repository.
 */
const ADD_SETTINGS = [...INDEX_SETTINGS, '-c', 'core.looseCompression=0']

/**
 * The tree each of the app's indexes held when it last wrote one, with the index file's identity
 * then: while the file is the same (git writes an index through a new file, so its inode, size
 * or time changes with every write, whoever writes it), its tree is the same, and `write-tree`
 * is not run again.
 */
export class IndexTrees {
  private readonly trees = new Map<string, { tree: string; identity: string }>()

  remember(indexFile: string, tree: string): void {
    const identity = fileIdentity(indexFile)
    if (identity === null) this.trees.delete(indexFile)
    else this.trees.set(indexFile, { tree, identity })
  }

  /** The tree `indexFile` holds, when it is the file it was at `remember`; else null. */
  unchanged(indexFile: string): string | null {
    const known = this.trees.get(indexFile)
    return known !== undefined && known.identity === fileIdentity(indexFile) ? known.tree : null
  }
}

function fileIdentity(file: string): string | null {
  const stats = statSync(file, { throwIfNoEntry: false, bigint: true })
  return stats === undefined
    ? null
    : `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
}

/**
 * A commit of everything in `folder` now (tracked, untracked and deleted files; ignored ones
 * left out), parented on HEAD, written with the app's own index for this agent: the agent's
 * index, HEAD and branch are untouched, and no stash is made. The index is kept between
 * snapshots, so git's record of unchanged files (the stat cache) makes the next one read only
 * what changed. `previous` (the last checkpoint) is reused when nothing moved.
 */
export async function snapshotFolder(
  folder: UndoFolder,
  previous: { commit: string; tree: string; head: string | null } | null,
  indexTrees: IndexTrees | null = null,
): Promise<FolderState> {
  const env = { GIT_INDEX_FILE: folder.indexFile }
  ensurePrivateFolder(dirname(folder.indexFile))
  const headRead = runIn(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
  // The first snapshot starts from HEAD's tree: never from the agent's own index, whose record of
  // a file (its stat beside an id) the agent could forge to hide a change from the checkpoint.
  if (!existsSync(folder.indexFile)) {
    const head = await headRead
    if (head.status === 0) await outputIn(folder, ['read-tree', head.stdout.trim()], { env })
  }
  const added = await runIn(
    folder,
    [...ADD_SETTINGS, 'add', '-A', '--ignore-errors', '--', ...coveredPathspec(folder)],
    { env },
  )
  if (added.status !== 0 && !onlyTeamFolderIgnored(added.stderr, folder.scope))
    throw new TeamError(
      'io',
      `git add failed: ${(added.stderr || added.stdout).trim() || `exit ${added.status}`}`,
    )
  // An add that changed nothing left the index as it was: its tree is known.
  const known = indexTrees?.unchanged(folder.indexFile) ?? null
  const [tree, headResult] = await Promise.all([
    known ?? outputIn(folder, [...INDEX_SETTINGS, 'write-tree'], { env }).then((out) => out.trim()),
    headRead,
  ])
  if (known === null) indexTrees?.remember(folder.indexFile, tree)
  const head = headResult.status === 0 ? headResult.stdout.trim() : null
  if (previous !== null && previous.tree === tree && previous.head === head)
    return { commit: previous.commit, tree, head }
  const parents = head === null ? [] : ['-p', head]
  const commit = (
    await outputIn(
      folder,
      ['commit-tree', tree, ...parents, '-m', `checkpoint of ${folder.name}`],
      {
        env: teammateIdentity(folder.name),
      },
    )
  ).trim()
  return { commit, tree, head }
}
