import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

// The app keeps teammates' worktrees and its records of them in its data folder
// ($XDG_DATA_HOME/agent-teams): every test file gets one of its own, never the person's.
const folder = mkdtempSync(join(tmpdir(), 'agent-teams-test-data-'))
process.env.XDG_DATA_HOME = folder

afterAll(() => {
  rmSync(folder, { recursive: true, force: true, maxRetries: 2 })
})
