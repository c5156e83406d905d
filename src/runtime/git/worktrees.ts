import {
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { TeamError } from '../../shared/errors'
import { teammateBranch, type MemberWorktree } from '../../shared/worktree'
import { ensurePrivateFolder } from '../fs/app-folders'
import { FILE_CAPS, openRegularForReadSync, readDescriptorSync } from '../fs/safe-open'
import { Git, teammateIdentity, type GitCallOptions, type GitResult } from './git'
import { isInside } from './hardening'
import { legacyWorktree } from './legacy-worktrees'
import { RefLedger } from './ref-ledger'
import { WorktreeRecords, type WorktreeRecord } from './worktree-records'

/** The ref that marks where a teammate's current (or last) turn began. */
export function turnStartRef(name: string): string {
  return `refs/agent-teams/turn-start/${name}`
}

/**
 * The ref that records a merge the app made of `name`'s branch (the window's Accept, `review
 * merge`): its commit, kept in the ref ledger like every ref of the app's, so the timeline can
 * tell the app's merges from anyone's.
 */
export function mergeRef(name: string, commit: string): string {
  return `refs/agent-teams/merges/${name}/${commit}`
}

/** Where a workspace's worktrees and the app's record of them are kept. */
export interface WorktreePlaces {
  readonly workspace: string
  /** The workspace's own folder in the app's data (fs/app-folders.ts). */
  readonly dataFolder: string
}

/**
 * The teammates' git worktrees of one workspace: `<data folder>/worktrees/<name>` on the branch
 * `team/<name>`. They live in the app's data, not in the workspace, so no other agent (the lead
 * works in the workspace) can reach them and no folder a repository commits (a symlink among
 * them) can stand in for them. Every path comes from the app's own record (worktree-records.ts),
 * made when the app created the worktree.
 */
export class Worktrees {
  readonly workspace: string
  readonly git: Git
  readonly records: WorktreeRecords
  /** The app's own refs and the values it gave them (ref-ledger.ts). */
  readonly ledger: RefLedger
  /**
   * Whether the workspace was a repository when the team opened. One made later (an agent's
   * `git init`) had its config written by an agent while nothing kept it read-only, so the app
   * runs no git there until the team is opened again.
   */
  private readonly repositoryAtOpen: Promise<boolean>

  constructor(places: WorktreePlaces) {
    this.workspace = resolve(places.workspace)
    this.records = new WorktreeRecords(places.dataFolder, this.workspace)
    this.ledger = new RefLedger(join(places.dataFolder, 'refs.json'))
    this.git = new Git({ agentWritable: [this.workspace, this.records.root] })
    this.repositoryAtOpen = this.git.isInsideWorkTree(this.workspace).catch(() => false)
  }

  /** Whether the workspace is a git repository with a commit to branch from (since the open). */
  async available(): Promise<boolean> {
    return (await this.repositoryAtOpen) && (await this.git.isRepository(this.workspace))
  }

  /** `name`'s worktree as the app recorded it, or null. */
  record(name: string): WorktreeRecord | null {
    return this.records.get(name)
  }

  /** Whether `name` has a worktree folder the app made (and git still knows). */
  exists(name: string): boolean {
    const record = this.record(name)
    return record !== null && existsSync(join(record.folder, '.git'))
  }

  /** Where `name`'s tools work: its worktree, at the workspace's place in the repository. */
  root(name: string): string {
    const record = this.required(name)
    return join(record.folder, record.prefix)
  }

  /**
   * Makes `name`'s worktree from the current HEAD (or takes back its branch, kept when it was
   * removed before); returns what config.json keeps of it.
   */
  async create(name: string): Promise<MemberWorktree> {
    if (!(await this.available()))
      throw new TeamError(
        'not-a-repository',
        `${this.workspace} is not a git repository with a commit; a worktree needs one.`,
      )
    const baseCommit = (await this.git.output(this.workspace, ['rev-parse', 'HEAD'])).trim()
    const base = (await this.currentBranch()) ?? baseCommit
    await this.attach(name, baseCommit)
    return { base, base_commit: baseCommit }
  }

  /** Puts the worktree folder back when it is gone (deleted by hand, a re-spawn, an upgrade). */
  async ensure(name: string, record: MemberWorktree): Promise<void> {
    if (this.exists(name)) return
    await this.git.run(this.workspace, ['worktree', 'prune'])
    if (await this.moveLegacy(name)) return
    await this.attach(name, record.base_commit)
  }

  /** Whether `name`'s branch exists. */
  async hasBranch(name: string): Promise<boolean> {
    const ref = `refs/heads/${teammateBranch(name)}`
    return (
      (await this.git.run(this.workspace, ['rev-parse', '--verify', '--quiet', ref])).status === 0
    )
  }

  /**
   * A commit of everything in `name`'s worktree now, committed or not (untracked files too,
   * as `git add -A` sees them), made with a throw-away index: the worktree, its index and its
   * branch are untouched. Its HEAD when nothing changed.
   */
  async snapshot(name: string): Promise<string> {
    const record = this.required(name)
    const head = (await this.outputIn(record, ['rev-parse', 'HEAD'])).trim()
    const scratch = mkdtempSync(join(tmpdir(), 'agent-teams-index-'))
    try {
      const index = join(scratch, 'index')
      const env = { GIT_INDEX_FILE: index }
      // A copy of the worktree's own index keeps git's record of unchanged files, so only
      // what changed is read again; without one, the index starts from HEAD.
      if (!copyIndex(join(record.git_dir, 'index'), index))
        await this.outputIn(record, ['read-tree', 'HEAD'], { env })
      await this.outputIn(record, ['add', '-A'], { env })
      const tree = (await this.outputIn(record, ['write-tree'], { env })).trim()
      if (tree === (await this.outputIn(record, ['rev-parse', 'HEAD^{tree}'])).trim()) return head
      const message = `${name}: uncommitted work`
      const args = ['commit-tree', tree, '-p', head, '-m', message]
      return (await this.outputIn(record, args, { env: teammateIdentity(name) })).trim()
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }

  /** Marks the start of a turn: the turn's diff is taken from here. */
  async markTurnStart(name: string): Promise<void> {
    if (!this.exists(name)) return
    await this.setRef(turnStartRef(name), await this.snapshot(name))
  }

  /** Points one of the app's own refs at `commit`, and records that the app did. */
  async setRef(ref: string, commit: string): Promise<void> {
    await this.git.output(this.workspace, ['update-ref', ref, commit])
    this.ledger.set(ref, commit)
  }

  /** Removes one of the app's own refs. */
  async deleteRef(ref: string): Promise<void> {
    await this.git.run(this.workspace, ['update-ref', '-d', ref])
    this.ledger.delete(ref)
  }

  /**
   * One of the app's own refs, or null when it is missing or was moved by anyone but the app
   * (`moved` is then set): such a ref is never used as where a review starts.
   */
  async appRef(ref: string): Promise<{ commit: string | null; moved: boolean }> {
    const result = await this.git.run(this.workspace, ['rev-parse', '--verify', '--quiet', ref])
    const actual = result.status === 0 ? result.stdout.trim() : null
    const recorded = this.ledger.get(ref)
    if (actual === null) return { commit: null, moved: recorded !== null }
    if (recorded !== actual) return { commit: null, moved: true }
    return { commit: actual, moved: false }
  }

  /** Commits what `name` left uncommitted in its worktree, as `name`; whether it did. */
  async checkpoint(name: string, message: string): Promise<boolean> {
    const record = this.required(name)
    if ((await this.outputIn(record, ['status', '--porcelain'])).trim() === '') return false
    await this.outputIn(record, ['add', '-A'])
    const args = ['commit', '--no-verify', '-q', '-m', message]
    await this.outputIn(record, args, { env: teammateIdentity(name) })
    return true
  }

  /**
   * `git args…` in `name`'s worktree, pointed at the git folder and work tree the app recorded,
   * never at what the worktree's `.git` file says; whatever its exit status.
   */
  async runIn(
    name: string,
    args: readonly string[],
    options: GitCallOptions = {},
  ): Promise<GitResult> {
    const record = this.required(name)
    return this.git.run(record.folder, args, { ...options, repository: repositoryOf(record) })
  }

  private outputIn(record: WorktreeRecord, args: readonly string[], options: GitCallOptions = {}) {
    return this.git.output(record.folder, args, { ...options, repository: repositoryOf(record) })
  }

  /**
   * Whether `name` has work that `into` does not hold: uncommitted changes, or a branch
   * whose merge would change `into` (a squash-merged branch has none).
   */
  async hasUnmergedWork(name: string, into: string): Promise<boolean> {
    const tip = this.exists(name)
      ? await this.snapshot(name)
      : (await this.hasBranch(name))
        ? teammateBranch(name)
        : null
    if (tip === null) return false
    const merged = await this.git.run(this.workspace, ['merge-tree', '--write-tree', into, tip])
    if (merged.status !== 0) return true
    const intoTree = (await this.git.output(this.workspace, ['rev-parse', `${into}^{tree}`])).trim()
    return merged.stdout.split('\n')[0]?.trim() !== intoTree
  }

  /** Removes the worktree folder (its work committed first) and, with `deleteBranch`, the branch. */
  async remove(name: string, options: { deleteBranch: boolean }): Promise<void> {
    const record = this.record(name)
    if (record !== null && this.exists(name)) {
      if (!options.deleteBranch) await this.checkpoint(name, `${name}: work kept at removal`)
      await this.git.output(this.workspace, ['worktree', 'remove', '--force', record.folder])
    }
    if (record !== null) this.clearFolder(record.folder)
    this.records.delete(name)
    await this.git.run(this.workspace, ['worktree', 'prune'])
    await this.deleteRef(turnStartRef(name))
    if (options.deleteBranch && (await this.hasBranch(name)))
      await this.git.output(this.workspace, ['branch', '-D', teammateBranch(name)])
  }

  /** The branch checked out in the workspace, or null when its HEAD is detached. */
  async currentBranch(): Promise<string | null> {
    const result = await this.git.run(this.workspace, ['symbolic-ref', '--short', '-q', 'HEAD'])
    return result.status === 0 ? result.stdout.trim() : null
  }

  private required(name: string): WorktreeRecord {
    const record = this.record(name)
    if (record === null)
      throw new TeamError('no-worktree', `${name} has no worktree made by this app.`)
    return record
  }

  private async attach(name: string, from: string): Promise<void> {
    const folders = await this.repositoryFolders()
    const folder = join(realpathSync(ensurePrivateFolder(this.records.root)), name)
    this.clearFolder(folder)
    const branch = teammateBranch(name)
    // A branch kept from an earlier run is taken back with its work; otherwise a new one.
    const args = (await this.hasBranch(name))
      ? ['worktree', 'add', '--quiet', folder, branch]
      : ['worktree', 'add', '--quiet', '-b', branch, folder, from]
    await this.git.output(this.workspace, args)
    this.remember(name, folder, folders)
  }

  /** Records a worktree git has just made, from git's own files there (nothing ran in it yet). */
  private remember(name: string, folder: string, folders: { common: string; prefix: string }) {
    const gitDir = realpathSync(readGitFile(join(folder, '.git')))
    if (dirname(gitDir) !== join(folders.common, 'worktrees'))
      throw new TeamError(
        'unsafe-repository',
        `git made ${folder} with its admin folder at ${gitDir}, outside ${folders.common}.`,
      )
    this.records.set(name, {
      folder,
      git_dir: gitDir,
      common_dir: folders.common,
      prefix: folders.prefix,
      created_at: Date.now() / 1000,
    })
  }

  /** A worktree from before worktrees moved to the app's data: moved there, when it is safe. */
  private async moveLegacy(name: string): Promise<boolean> {
    const old = await legacyWorktree(this.git, this.workspace, name)
    if (old === null) return false
    const folders = await this.repositoryFolders()
    const folder = join(realpathSync(ensurePrivateFolder(this.records.root)), name)
    this.clearFolder(folder)
    await this.git.output(this.workspace, ['worktree', 'move', old, folder])
    this.remember(name, folder, folders)
    return true
  }

  /**
   * The repository's shared folder and the workspace's place in it, checked to belong to this
   * workspace: inside it, the `.git` of a folder that holds it, or (for a workspace that is
   * itself a linked worktree) the repository whose record of that worktree points back here.
   */
  private async repositoryFolders(): Promise<{ common: string; prefix: string }> {
    const lines = (
      await this.git.output(this.workspace, [
        'rev-parse',
        '--git-dir',
        '--git-common-dir',
        '--show-prefix',
      ])
    ).split('\n')
    const real = realpathSync(this.workspace)
    const own = realpathSync(resolve(this.workspace, lines[0]?.trim() ?? ''))
    const common = realpathSync(resolve(this.workspace, lines[1]?.trim() ?? ''))
    const prefix = lines[2]?.trim() ?? ''
    const holdsWorkspace = basename(common) === '.git' && isInside(dirname(common), real)
    const linkedHere =
      own !== common && isInside(join(common, 'worktrees'), own) && pointsBack(own, real)
    if (!isInside(real, common) && !holdsWorkspace && !linkedHere)
      throw new TeamError(
        'unsafe-repository',
        `The workspace's .git leads to ${common}, which is neither inside the workspace nor a repository that holds it; teammates share the workspace until that is fixed.`,
      )
    return { common, prefix }
  }

  /** Removes a folder of the app's own under `records.root`; a link there is only unlinked. */
  private clearFolder(folder: string): void {
    const root = this.records.realRoot()
    if (!isInside(root, folder) || folder === root) return
    const stats = lstatSync(folder, { throwIfNoEntry: false })
    if (stats === undefined) return
    // rmSync never follows a link inside the folder; a link in its place is removed itself.
    rmSync(folder, { recursive: stats.isDirectory() && !stats.isSymbolicLink(), force: true })
  }
}

function repositoryOf(record: WorktreeRecord): { gitDir: string; workTree: string } {
  return { gitDir: record.git_dir, workTree: record.folder }
}

/** Copies a worktree's index without following a link its teammate may have put there. */
function copyIndex(from: string, to: string): boolean {
  let fd: number | null
  try {
    fd = openRegularForReadSync(from, { what: "A worktree's index" })
  } catch {
    return false
  }
  if (fd === null) return false
  try {
    writeFileSync(
      to,
      readDescriptorSync(fd, from, { what: "A worktree's index", maxBytes: 1024 * 1024 * 1024 }),
    )
    return true
  } finally {
    closeSync(fd)
  }
}

/** The admin folder a `.git` file names (`gitdir: <path>`), read without following links. */
function readGitFile(path: string): string {
  const fd = openRegularForReadSync(path, { what: "A worktree's .git file" })
  if (fd === null) throw new TeamError('io', `${path} is missing.`)
  try {
    const text = readDescriptorSync(fd, path, {
      what: "A worktree's .git file",
      maxBytes: FILE_CAPS.cursor,
    }).toString('utf8')
    const match = /^gitdir:\s*(.+)$/m.exec(text)
    if (match?.[1] === undefined)
      throw new TeamError('file-invalid', `${path} names no git folder.`)
    return resolve(dirname(path), match[1].trim())
  } finally {
    closeSync(fd)
  }
}

/** Whether a linked worktree's admin folder records `workspace` as its worktree. */
function pointsBack(adminFolder: string, workspace: string): boolean {
  try {
    const fd = openRegularForReadSync(join(adminFolder, 'gitdir'), { what: 'A worktree record' })
    if (fd === null) return false
    try {
      const text = readDescriptorSync(fd, adminFolder, {
        what: 'A worktree record',
        maxBytes: FILE_CAPS.cursor,
      })
      return realpathSync(dirname(text.toString('utf8').trim())) === workspace
    } finally {
      closeSync(fd)
    }
  } catch {
    return false
  }
}
