import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTranscript } from '../../src/runtime/agents/transcript-store'
import { needsYouPath, readNeedsYou } from '../../src/runtime/needs-you/store'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import type { NeedsYouEntry } from '../../src/shared/needs-you'
import { cli } from '../helpers/cli'
import { waitFor } from '../helpers/wait'
import { bundleWorkers, kill, startWorker } from './processes'

let workers: Awaited<ReturnType<typeof bundleWorkers>>
let workspace: string

beforeAll(async () => {
  workers = await bundleWorkers(['ask-runner'])
  workspace = mkdtempSync(join(tmpdir(), 'agent-teams-needs-you-crash-'))
})
afterAll(() => {
  workers.dispose()
  rmSync(workspace, { recursive: true, force: true })
})

function pendingEntries(paths: TeamPaths): NeedsYouEntry[] {
  return readNeedsYou(needsYouPath(paths)).entries.filter((entry) => entry.status === 'pending')
}

describe('the Needs-you queue under SIGKILL', () => {
  it('a tool call waiting for approval survives the kill, waits again on the same entry, and runs once approved from the CLI', async () => {
    const paths = new TeamPaths(workspace)
    const first = startWorker(workers.path('ask-runner'), [workspace])
    await first.ready
    await waitFor(
      () => pendingEntries(paths).length === 1,
      () => `a pending entry (${first.stderr()})`,
      { timeout: 30_000 },
    )
    const [entry] = pendingEntries(paths) as [NeedsYouEntry]
    expect(entry).toMatchObject({
      agent: 'alice',
      tool: 'bash',
      detail: 'echo approved >> ran.txt',
    })
    await kill(first)
    // Killed while it waited: nothing ran, and the entry is still there.
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
    expect(pendingEntries(paths).map((one) => one.id)).toEqual([entry.id])

    const second = startWorker(workers.path('ask-runner'), [workspace])
    try {
      await second.ready
      // The restarted agent waits on the same entry: no second one, status waiting-for-you.
      await waitFor(
        () =>
          Roster.read(paths).members.find((member) => member.name === 'alice')?.status ===
          'waiting-for-you',
        () => `alice waiting for you again (${second.stderr()})`,
        { timeout: 30_000 },
      )
      expect(pendingEntries(paths).map((one) => one.id)).toEqual([entry.id])

      const queue = await cli(['queue', '--json', '--workspace', workspace])
      expect(queue.code).toBe(0)
      expect(queue.lines.map((line) => (JSON.parse(line) as NeedsYouEntry).id)).toEqual([entry.id])

      const approved = await cli(['approve', entry.id, '--workspace', workspace])
      expect(approved.stderr).toBe('')
      expect(approved.code).toBe(0)
      expect(approved.stdout).toMatch(/approved/)
      await waitFor(
        () =>
          readTranscript(paths.transcript('alice')).records.some(
            (record) =>
              record.kind === 'assistant' && JSON.stringify(record.content).includes('Ran it.'),
          ),
        () => `alice to finish (${second.stderr()})`,
        { timeout: 30_000 },
      )
      expect(readFileSync(join(workspace, 'ran.txt'), 'utf8')).toBe('approved\n')
      const results = readTranscript(paths.transcript('alice')).records.filter(
        (record) => record.kind === 'tool-result',
      )
      expect(results).toHaveLength(1)
      expect(results[0]).toMatchObject({ tool_use_id: 'toolu_alice_ask', is_error: false })
    } finally {
      await kill(second)
    }
  })
})
