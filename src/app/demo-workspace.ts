import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../shared/errors'
import { Git } from '../runtime/git/git'

const DEMO_MARKER = 'offline-demo'

const DEMO_README = `# Offline demo

A folder made by Agent Teams' offline demo. The team's work lands here: each teammate works in
its own git worktree (kept in Agent Teams' data folder, on the branch \`team/<name>\`), and a branch is
merged here when the person accepts it in the Changes view.
`

/**
 * A fresh folder for the offline demo under `parent`, marked as one. It is a git repository
 * with a first commit, so that the demo's teammates get worktrees of their own and the review
 * loop can be tried; where git is missing it stays a plain folder and the team shares it.
 */
export async function makeDemoWorkspace(parent: string): Promise<string> {
  const folder = mkdtempSync(join(parent, 'agent-teams-demo-'))
  // Marked in the folder itself, so that the demo stays on the offline model after a restart.
  mkdirSync(join(folder, '.team'), { recursive: true })
  writeFileSync(join(folder, '.team', DEMO_MARKER), 'This team was started by the offline demo.\n')
  await initRepository(folder)
  return folder
}

/** `git init` with a README and a `.gitignore` for `.team/`, committed; false without git. */
async function initRepository(folder: string): Promise<boolean> {
  writeFileSync(join(folder, 'README.md'), DEMO_README)
  // The team's own files are not the project's work: never committed, never in a diff.
  writeFileSync(join(folder, '.gitignore'), '.team/\n')
  const git = new Git({ agentWritable: [folder] })
  try {
    const steps: string[][] = [
      ['init', '-q', '-b', 'main'],
      ['add', 'README.md', '.gitignore'],
    ]
    for (const args of steps) if ((await git.run(folder, args)).status !== 0) return false
    const committed = await git.run(
      folder,
      ['commit', '-q', '--no-verify', '-m', 'Start the demo'],
      { env: await git.committerEnvironment(folder) },
    )
    return committed.status === 0
  } catch (error) {
    // git is not installed: the demo runs in a plain folder, with the shared workspace.
    if (error instanceof TeamError) return false
    throw error
  }
}

/** A folder the offline demo made: its team always runs on the offline model. */
export function isDemoWorkspace(workspace: string): boolean {
  return existsSync(join(workspace, '.team', DEMO_MARKER))
}
