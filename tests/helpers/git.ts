import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { appDataFolder, workspaceDataFolder } from '../../src/runtime/fs/app-folders'
import { tempWorkspace } from './workspace'

/** `git args…` in `cwd`, its output trimmed (throws on a non-zero exit). */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  }).trim()
}

/** Writes `files` (path → text) under `folder`, making folders as needed. */
export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), text)
  }
}

/** Commits everything in `folder` as the test's own person. */
export function commitAll(folder: string, message: string): string {
  gitIn(folder, 'add', '-A')
  gitIn(folder, 'commit', '-q', '-m', message)
  return gitIn(folder, 'rev-parse', 'HEAD')
}

/**
 * A fresh workspace that is a git repository on `main` with one commit of `files` (removed
 * when the test finishes); `parent`: made as its `project` folder, so that its siblings are the
 * test's own.
 */
export function gitWorkspace(
  files: Record<string, string> = {
    'README.md': '# Project\n',
    'src/app.ts': 'export const a = 1\n',
  },
  parent?: string,
): string {
  const dir = parent === undefined ? tempWorkspace('agent-teams-git-').dir : join(parent, 'project')
  mkdirSync(dir, { recursive: true })
  gitIn(dir, 'init', '-q', '-b', 'main')
  gitIn(dir, 'config', 'user.name', 'Test Person')
  gitIn(dir, 'config', 'user.email', 'person@example.com')
  gitIn(dir, 'config', 'commit.gpgsign', 'false')
  writeFiles(dir, files)
  commitAll(dir, 'Start')
  return dir
}

/** Where the app makes `name`'s worktree for `workspace` (in this test's data folder). */
export function worktreeFolder(workspace: string, name: string): string {
  const root = join(workspaceDataFolder(appDataFolder(process.env), workspace), 'worktrees')
  return join(existsSync(root) ? realpathSync(root) : root, name)
}
