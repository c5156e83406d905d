import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { readTranscript } from '../../../src/runtime/agents/transcript-store'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { queueScript, toolCall } from '../../../src/offline-model/script'
import { startAgentTeams } from '../../helpers/bin'
import { sandboxSkipReason } from '../../helpers/sandbox'
import { waitFor } from '../../helpers/wait'
import { tempWorkspace } from '../../helpers/workspace'

const skipReason = sandboxSkipReason()
if (skipReason !== null)
  console.info(`[skipped] chat and SIGTERM after a sandboxed command: ${skipReason}`)

/** How long a stopped team may take to settle and exit. */
const EXIT_MS = 10_000

describe('agent-teams chat and SIGTERM', () => {
  it.skipIf(skipReason !== null)(
    'exits promptly after a sandboxed command, with the team stopped cleanly',
    async () => {
      // The lead runs one command in the sandbox, then its next reply stalls (a slow model).
      const script = queueScript({
        lead: [
          toolCall('bash', { command: 'echo sandboxed > ran.txt' }, 'tu_bash'),
          { fault: 'stall', afterEvents: 1, milliseconds: 120_000 },
        ],
      })
      const server = await OfflineModelServer.start({ script, apiKey: 'test-key' })
      onTestFinished(() => server.close())
      const { dir } = tempWorkspace()
      const config = join(dir, 'config-home')
      mkdirSync(config)
      const run = startAgentTeams(['chat', 'Run it.', '--workspace', dir], {
        env: {
          XDG_CONFIG_HOME: config,
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          MODEL_ID: 'x',
        },
      })
      onTestFinished(() => void run.child.kill('SIGKILL'))
      // The command ran, the CLI printed its result, and the stalled reply is asked for. What
      // the CLI prints reaches this process through a pipe, not in step with the model requests.
      await waitFor(
        () =>
          existsSync(join(dir, 'ran.txt')) &&
          /\[lead\] ← bash:/.test(run.stdout()) &&
          server.requests.length === 2,
        () => `the command ran, its result printed and sent (stdout: ${run.stdout()})`,
        { timeout: 30_000 },
      )

      const signalled = Date.now()
      run.child.kill('SIGTERM')
      const exit = await Promise.race([
        run.finished,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), EXIT_MS)),
      ])
      expect(exit, `still running ${EXIT_MS} ms after SIGTERM`).not.toBeNull()
      expect(Date.now() - signalled).toBeLessThan(EXIT_MS)
      expect(exit?.code).toBe(143)
      expect(exit?.stderr).toContain('stopped by SIGTERM; the transcripts are saved')
      const paths = new TeamPaths(dir)
      expect(existsSync(join(paths.root, 'runtime.lock'))).toBe(false)
      const transcript = readTranscript(paths.transcript('lead'))
      expect(transcript.problems).toEqual([])
      expect(transcript.records.at(-1)).toMatchObject({ kind: 'status' })
      expect(Roster.read(paths).members.every((member) => member.status !== 'working')).toBe(true)
    },
    60_000,
  )
})
