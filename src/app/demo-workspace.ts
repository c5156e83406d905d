import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const DEMO_MARKER = 'offline-demo'

/** A fresh folder for the offline demo under `parent`, marked as one. */
export function makeDemoWorkspace(parent: string): string {
  const folder = mkdtempSync(join(parent, 'agent-teams-demo-'))
  // Marked in the folder itself, so that the demo stays on the offline model after a restart.
  mkdirSync(join(folder, '.team'), { recursive: true })
  writeFileSync(join(folder, '.team', DEMO_MARKER), 'This team was started by the offline demo.\n')
  return folder
}

/** A folder the offline demo made: its team always runs on the offline model. */
export function isDemoWorkspace(workspace: string): boolean {
  return existsSync(join(workspace, '.team', DEMO_MARKER))
}
