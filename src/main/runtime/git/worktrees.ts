import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { TeamError } from '../../../shared/errors'
import { teammateBranch, WORKTREES_FOLDER, type MemberWorktree } from '../../../shared/worktree'
import { git, isGitRepository, runGit, teammateIdentity } from './git'

/** The ref that marks where a teammate's current (or last) turn began. */
export function turnStartRef(name: string): string {
  return `refs/agent-teams/turn-start/${name}`
}

/**
 * The teammates' git worktrees of one workspace: `<workspace>/.team-worktrees/<name>` on the
 * branch `team/<name>`. The folder is outside `.team/` (no agent writes there) and listed in
 * the repository's own `info/exclude`, so the base worktree's `git status` never shows it.
 */
export class Worktrees {
  readonly workspace: string
  /** The workspace's place inside its repository ('' at the top), asked once. */
  private prefix: string | null = null
  constructor(workspace: string) {
    this.workspace = resolve(workspace)
  }

  /** Whether the workspace is a git repository with a commit to branch from. */
  available(): boolean {
    return isGitRepository(this.workspace)
  }

  folder(name: string): string {
    return join(this.workspace, WORKTREES_FOLDER, name)
  }

  /**
   * Where `name`'s tools work: its worktree, at the workspace's place in the repository (the
   * same subfolder when the workspace is a folder inside a larger repository).
   */
  root(name: string): string {
    this.prefix ??= runGit(this.workspace, ['rev-parse', '--show-prefix']).stdout.trim()
    return join(this.folder(name), this.prefix)
  }

  /**
   * Makes `name`'s worktree from the current HEAD (or takes back its branch, kept when it was
   * removed before); returns what config.json keeps of it.
   */
  create(name: string): MemberWorktree {
    if (!this.available())
      throw new TeamError(
        'invalid-argument',
        `${this.workspace} is not a git repository with a commit; a worktree needs one.`,
      )
    const baseCommit = git(this.workspace, ['rev-parse', 'HEAD']).trim()
    const base = this.currentBranch() ?? baseCommit
    this.excludeFolder()
    this.attach(name, baseCommit)
    return { base, base_commit: baseCommit }
  }

  /** Puts the worktree folder back when it is gone (deleted by hand, or a re-spawn). */
  ensure(name: string, record: MemberWorktree): void {
    if (existsSync(join(this.folder(name), '.git'))) return
    runGit(this.workspace, ['worktree', 'prune'])
    this.excludeFolder()
    this.attach(name, record.base_commit)
  }

  /** Whether `name`'s branch exists. */
  hasBranch(name: string): boolean {
    return (
      runGit(this.workspace, [
        'rev-parse',
        '--verify',
        '--quiet',
        `refs/heads/${teammateBranch(name)}`,
      ]).status === 0
    )
  }

  /**
   * A commit of everything in `name`'s worktree now, committed or not (untracked files too,
   * as `git add -A` sees them), made with a throw-away index: the worktree, its index and its
   * branch are untouched. Its HEAD when nothing changed.
   */
  snapshot(name: string): string {
    const folder = this.folder(name)
    const head = git(folder, ['rev-parse', 'HEAD']).trim()
    const scratch = mkdtempSync(join(tmpdir(), 'agent-teams-index-'))
    try {
      const index = join(scratch, 'index')
      const env = { GIT_INDEX_FILE: index }
      // A copy of the worktree's own index keeps git's record of unchanged files, so only
      // what changed is read again; without one, the index starts from HEAD.
      const own = this.indexOf(folder)
      if (own !== null) copyFileSync(own, index)
      else git(folder, ['read-tree', 'HEAD'], { env })
      git(folder, ['add', '-A'], { env })
      const tree = git(folder, ['write-tree'], { env }).trim()
      if (tree === git(folder, ['rev-parse', 'HEAD^{tree}']).trim()) return head
      return git(folder, ['commit-tree', tree, '-p', head, '-m', `${name}: uncommitted work`], {
        env: teammateIdentity(name),
      }).trim()
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }

  private indexOf(folder: string): string | null {
    const pathText = git(folder, ['rev-parse', '--git-path', 'index']).trim()
    const file = isAbsolute(pathText) ? pathText : join(folder, pathText)
    return existsSync(file) ? file : null
  }

  /** Marks the start of a turn: the turn's diff is taken from here. */
  markTurnStart(name: string): void {
    if (!existsSync(join(this.folder(name), '.git'))) return
    git(this.workspace, ['update-ref', turnStartRef(name), this.snapshot(name)])
  }

  /** Commits what `name` left uncommitted in its worktree, as `name`; whether it did. */
  checkpoint(name: string, message: string): boolean {
    const folder = this.folder(name)
    if (git(folder, ['status', '--porcelain']).trim() === '') return false
    git(folder, ['add', '-A'])
    git(folder, ['commit', '--no-verify', '-q', '-m', message], { env: teammateIdentity(name) })
    return true
  }

  /**
   * Whether `name` has work that `into` does not hold: uncommitted changes, or a branch
   * whose merge would change `into` (a squash-merged branch has none).
   */
  hasUnmergedWork(name: string, into: string): boolean {
    const tip = existsSync(join(this.folder(name), '.git'))
      ? this.snapshot(name)
      : this.hasBranch(name)
        ? teammateBranch(name)
        : null
    if (tip === null) return false
    const merged = runGit(this.workspace, ['merge-tree', '--write-tree', into, tip])
    if (merged.status !== 0) return true
    const intoTree = git(this.workspace, ['rev-parse', `${into}^{tree}`]).trim()
    return merged.stdout.split('\n')[0]?.trim() !== intoTree
  }

  /** Removes the worktree folder (its work committed first) and, with `deleteBranch`, the branch. */
  remove(name: string, options: { deleteBranch: boolean }): void {
    if (existsSync(join(this.folder(name), '.git'))) {
      if (!options.deleteBranch) this.checkpoint(name, `${name}: work kept at removal`)
      git(this.workspace, ['worktree', 'remove', '--force', this.folder(name)])
    }
    runGit(this.workspace, ['worktree', 'prune'])
    runGit(this.workspace, ['update-ref', '-d', turnStartRef(name)])
    if (options.deleteBranch && this.hasBranch(name))
      git(this.workspace, ['branch', '-D', teammateBranch(name)])
  }

  /** The branch checked out in the workspace, or null when its HEAD is detached. */
  currentBranch(): string | null {
    const result = runGit(this.workspace, ['symbolic-ref', '--short', '-q', 'HEAD'])
    return result.status === 0 ? result.stdout.trim() : null
  }

  private attach(name: string, from: string): void {
    const folder = this.folder(name)
    mkdirSync(dirname(folder), { recursive: true })
    if (existsSync(folder)) rmSync(folder, { recursive: true, force: true })
    const branch = teammateBranch(name)
    // A branch kept from an earlier run is taken back with its work; otherwise a new one.
    const args = this.hasBranch(name)
      ? ['worktree', 'add', '--quiet', folder, branch]
      : ['worktree', 'add', '--quiet', '-b', branch, folder, from]
    git(this.workspace, args)
  }

  /** Lists the worktrees' folder in the repository's `info/exclude` (once). */
  private excludeFolder(): void {
    const pathText = git(this.workspace, ['rev-parse', '--git-path', 'info/exclude']).trim()
    const file = isAbsolute(pathText) ? pathText : join(this.workspace, pathText)
    // Any depth: the workspace may be a folder inside a larger repository.
    const line = `${WORKTREES_FOLDER}/`
    const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
    if (current.split('\n').includes(line)) return
    mkdirSync(dirname(file), { recursive: true })
    const separator = current === '' || current.endsWith('\n') ? '' : '\n'
    appendFileSync(file, `${separator}# Agent Teams: the teammates' worktrees\n${line}\n`)
  }
}
