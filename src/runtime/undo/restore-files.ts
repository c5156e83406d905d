import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TeamError } from '../../shared/errors'
import {
  removeConfined,
  replaceLockedConfined,
  symlinkConfined,
  writeConfined,
} from '../tools/confined-fs'
import { outputIn, runIn, type UndoFolder } from './folder-state'

/** The largest file an undo restores (a blob read whole into memory). */
const MAX_BLOB = 1024 * 1024 * 1024
/** Blobs read per `cat-file --batch` call, by their total size. */
const BATCH_BYTES = 32 * 1024 * 1024

/** The bytes of each of `blobs`, read from the repository (no filter runs: raw content). */
export async function readBlobs(
  folder: UndoFolder,
  blobs: readonly string[],
  take: (blob: string, data: Buffer) => void,
): Promise<void> {
  const unique = [...new Set(blobs)]
  if (unique.length === 0) return
  const sizes = await outputIn(folder, ['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
    input: `${unique.join('\n')}\n`,
  })
  const batches: string[][] = [[]]
  let bytes = 0
  for (const line of sizes.split('\n').filter((entry) => entry !== '')) {
    const [blob = '', size = ''] = line.split(' ')
    if (size === 'missing' || size === '')
      throw new TeamError('io', `The repository no longer has the file content ${blob}.`)
    const length = Number.parseInt(size, 10)
    if (length > MAX_BLOB)
      throw new TeamError('too-large', `A file to restore is ${length} bytes, over ${MAX_BLOB}.`)
    if (bytes + length > BATCH_BYTES && (batches.at(-1)?.length ?? 0) > 0) {
      batches.push([])
      bytes = 0
    }
    batches.at(-1)?.push(blob)
    bytes += length
  }
  for (const batch of batches) {
    if (batch.length === 0) continue
    const output = await folder.git.outputBytes(folder.cwd, ['cat-file', '--batch'], {
      input: `${batch.join('\n')}\n`,
      repository: folder.repository,
    })
    let offset = 0
    for (const blob of batch) {
      const end = output.indexOf(0x0a, offset)
      const [, , size = '0'] = output.subarray(offset, end).toString('utf8').split(' ')
      const length = Number.parseInt(size, 10)
      take(blob, Buffer.from(output.subarray(end + 1, end + 1 + length)))
      offset = end + 1 + length + 1
    }
  }
}

/** One path's new state: a file (its mode and bytes), a symbolic link, or nothing. */
export type PathChange =
  | { readonly path: string; readonly mode: string; readonly data: Buffer }
  | { readonly path: string; readonly mode: null }

/**
 * Writes `changes` under the folder's work tree: removals first (a link or file in the way of a
 * folder goes before the folder's files come back), then files and links. Every step walks from
 * the work tree's own descriptor without following a link (tools/confined-fs.ts): a link the
 * agent planted (`x -> /etc`) is removed or replaced, never written through.
 */
export function writeChanges(
  folder: UndoFolder,
  changes: readonly PathChange[],
  afterEach: () => void = () => undefined,
): void {
  const top = realpathSync(folder.top)
  for (const change of changes) {
    if (change.mode !== null) continue
    removeConfined(top, join(top, checkedPath(change.path)), change.path)
    afterEach()
  }
  for (const change of changes) {
    if (change.mode === null) continue
    const target = join(top, checkedPath(change.path))
    if (change.mode === '120000')
      symlinkConfined(top, target, change.path, change.data.toString('utf8'))
    else
      writeConfined(top, target, change.path, change.data, change.mode === '100755' ? 0o755 : 0o644)
    afterEach()
  }
}

/**
 * After the files: the agent's branch moved back (`reset`, checked to be where the plan found it)
 * and its index made to match, as `git reset --mixed` would; without a reset, the index entries of
 * the restored paths are set back to HEAD's, so nothing undone stays staged. Only in the agent's
 * own worktree: the workspace's index is the person's.
 */
export async function resetBranch(
  folder: UndoFolder,
  reset: { ref: string; from: string; to: string } | null,
): Promise<string | null> {
  if (reset === null) return null
  const now = await runIn(folder, ['rev-parse', '--verify', '--quiet', reset.ref])
  const at = now.status === 0 ? now.stdout.trim() : null
  if (at === reset.to) return null
  if (at !== reset.from)
    return `${reset.ref} was moved by someone else meanwhile; it was left at ${at ?? 'nothing'}`
  const moved = await moveBranchFile(folder, reset)
  return moved ? null : `${reset.ref} was moved by someone else meanwhile; it was left as it was`
}

/**
 * Points the agent's branch at `reset.to` by writing its ref file, as git does (under git's
 * `.lock`, compared with `reset.from` while it is held), but with no reflog: the branch's log
 * and the worktree's `logs/HEAD` are the agent's to write, so either may be a link planted to
 * make the person's undo append to a file of theirs (git follows it; `core.logAllRefUpdates`
 * does not stop git appending to a log that exists). The file is reached by walking from the
 * repository's shared folder without following a link, and a link in the ref's place is
 * replaced, never followed. A loose ref wins over a packed one, so a packed branch is moved by
 * writing its loose file.
 */
async function moveBranchFile(
  folder: UndoFolder,
  reset: { ref: string; from: string; to: string },
): Promise<boolean> {
  const parts = reset.ref.split('/')
  if (
    !reset.ref.startsWith('refs/heads/') ||
    parts.some((part) => part === '' || part === '.' || part === '..' || part.endsWith('.lock'))
  )
    throw new TeamError('path-refused', `"${reset.ref}" is not a branch an undo moves.`)
  const storage = await runIn(folder, ['config', '--get', 'extensions.refStorage'])
  if (storage.status === 0 && storage.stdout.trim() !== 'files') {
    // reftable keeps logs inside its own tables: git writes no log file to follow.
    await outputIn(folder, ['update-ref', reset.ref, reset.to, reset.from])
    return true
  }
  const common = realpathSync(
    resolve(folder.cwd, (await outputIn(folder, ['rev-parse', '--git-common-dir'])).trim()),
  )
  return replaceLockedConfined(
    common,
    join(common, ...parts),
    reset.ref,
    Buffer.from(`${reset.to}\n`),
    // No loose file: the packed value holds, which rev-parse found to be `from`.
    (current) => current === null || current.trim() === reset.from,
  )
}

export async function matchIndex(
  folder: UndoFolder,
  reset: { to: string } | null,
  paths: readonly string[],
): Promise<void> {
  if (folder.repository === undefined) return
  if (reset !== null) {
    await outputIn(folder, ['read-tree', reset.to])
    await runIn(folder, ['update-index', '-q', '--refresh'])
    return
  }
  if (paths.length === 0) return
  const head = await runIn(folder, ['rev-parse', '--verify', '--quiet', 'HEAD'])
  if (head.status !== 0) return
  // Literal: a file named `*` or `:(glob)…` is that file, not a pattern matching others.
  const args = [
    '--literal-pathspecs',
    'reset',
    '-q',
    '--pathspec-from-file=-',
    '--pathspec-file-nul',
  ]
  await outputIn(folder, args, {
    input: `${paths.join('\0')}\0`,
  })
}

/** A path as git lists it, refused when it could leave the work tree or reach `.git`. */
function checkedPath(path: string): string {
  const parts = path.split('/')
  if (
    path === '' ||
    path.startsWith('/') ||
    path.includes('\0') ||
    parts.some(
      (part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git',
    )
  )
    throw new TeamError('path-refused', `"${path}" is not a path an undo writes.`)
  return path
}
