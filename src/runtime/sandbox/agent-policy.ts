import { existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { objectStoreKind } from '../git/object-store'
import type { WorktreeRecord } from '../git/worktree-records'
import { LEGACY_WORKTREES_FOLDER } from '../../shared/worktree'
import type { SandboxPolicy } from '../tools/bash-sandbox'

/**
 * What a process of an agent (a bash command, an MCP server) may do inside the OS sandbox. Every
 * folder it may write comes from the app's own knowledge: the workspace the person opened, and
 * for a teammate in a worktree the record the app made when it created it
 * (git/worktree-records.ts). Nothing here is read from a file an agent can write in order to
 * widen a right; what is read from the disk (is `.git` a folder?) only narrows one.
 *
 * In a repository, what would let an agent act through the app or the person's own git later
 * is read-only to every agent: the repository's config, its hooks and info/ (attributes), the
 * per-worktree config files, the teammates' branches (each teammate writes only its own), the
 * app's own refs (`refs/agent-teams/`: where reviews start), the other worktrees' admin
 * folders, and submodules' git folders. The `.git` folder itself is bound onto itself, so it
 * cannot be renamed or replaced by a `.git` file that leads elsewhere.
 *
 * The object store the agent may write is bound onto itself, so that `objects/` cannot be renamed
 * or replaced by a link from inside. The folders in it (`<xx>`, `pack`, `info`) are the agent's
 * to replace, a link among them included: the app's own git writes objects only inside a box
 * where nothing outside the repository is writable (git/git-box.ts), and repairs them before
 * each call (git/object-store.ts), so such a link never takes the app's writes elsewhere.
 */
export interface AgentPolicyInput {
  /** The team's workspace. */
  readonly workspace: string
  /** The team's `.team/` folder. */
  readonly teamFolder: string
  /** Where the agent works: the workspace (or a folder in it), or its worktree's root. */
  readonly root: string
  /** The app's record of the agent's own worktree, or null when it works in the workspace. */
  readonly worktree: WorktreeRecord | null
  /** The teammate's name (its own branch is the one it may move). */
  readonly agent: string
  readonly allowedHosts: readonly string[]
  /** Folders no agent may read: the app's config folder (settings, the key), … */
  readonly unreadable: readonly string[]
}

export function agentSandboxPolicy(input: AgentPolicyInput): SandboxPolicy {
  const readOnly = new Set<string>([input.teamFolder, join(input.workspace, '.team')])
  const writable = [input.root]
  // Bound after its parent (the parent's bind, made later, would cover it).
  const objectStores: string[] = []
  const pinObjectStore = (objects: string): void => {
    const kind = objectStoreKind(objects)
    // Not a plain folder: nothing is written there from inside, and the app's git refuses it.
    if (kind === 'folder') objectStores.push(objects)
    else if (kind !== null) readOnly.add(objects)
  }
  if (input.worktree === null) {
    // In the workspace: the repository's own parts are protected inside it.
    const dotGit = join(input.workspace, '.git')
    const kind = entryKind(dotGit)
    if (kind === 'folder') {
      writable.push(dotGit)
      for (const path of repositoryProtections(dotGit)) readOnly.add(path)
      pinObjectStore(join(dotGit, 'objects'))
    } else if (kind !== null) readOnly.add(dotGit)
    const legacy = join(input.workspace, LEGACY_WORKTREES_FOLDER)
    if (entryKind(legacy) !== null) readOnly.add(legacy)
  } else {
    // In its own worktree: only what committing there writes, and its own branch among the
    // teammates' (the others' branch files are bound read-only, so they cannot be replaced).
    const { folder, git_dir: gitDir, common_dir: common } = input.worktree
    const branches = ensureFolder(join(common, 'refs', 'heads', 'team'))
    const logs = ensureFolder(join(common, 'logs', 'refs', 'heads', 'team'))
    writable.push(gitDir, branches, logs)
    pinObjectStore(join(common, 'objects'))
    for (const path of [
      join(folder, '.git'),
      join(gitDir, 'commondir'),
      join(gitDir, 'gitdir'),
      join(gitDir, 'config.worktree'),
      ...otherEntries(branches, input.agent),
      ...otherEntries(logs, input.agent),
    ])
      if (entryKind(path) !== null) readOnly.add(path)
  }
  return {
    writable: [...writable, ...objectStores],
    readOnly: [...readOnly],
    unreadable: [...input.unreadable],
    allowedHosts: [...input.allowedHosts],
  }
}

/**
 * The parts of a repository's git folder in the workspace no agent may write, that exist. The
 * teammates' branch folder and the app's refs folder are made first (empty folders, which git
 * ignores), so that they are protected before any agent could plant a branch or a mark there.
 */
function repositoryProtections(gitFolder: string): string[] {
  if (entryKind(join(gitFolder, 'refs')) !== 'folder') return []
  ensureFolder(join(gitFolder, 'refs', 'heads', 'team'))
  ensureFolder(join(gitFolder, 'refs', 'agent-teams'))
  return [
    'config',
    'config.worktree',
    'hooks',
    'info',
    'modules',
    'worktrees',
    join('refs', 'heads', 'team'),
    join('refs', 'agent-teams'),
  ]
    .map((part) => join(gitFolder, part))
    .filter((path) => entryKind(path) !== null)
}

/** The other teammates' entries in a `team/` folder of refs or logs (`<folder>/<name>`). */
function otherEntries(folder: string, own: string): string[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  return names.filter((name) => name !== own).map((name) => join(folder, name))
}

function ensureFolder(folder: string): string {
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true })
  return folder
}

function entryKind(path: string): 'folder' | 'file' | 'link' | null {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (stats === undefined) return null
  if (stats.isSymbolicLink()) return 'link'
  return stats.isDirectory() ? 'folder' : 'file'
}
