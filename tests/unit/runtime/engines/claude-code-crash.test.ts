import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { OfflineModelServer } from '../../../../src/offline-model/offline-server'
import { text, toolCall, type Script } from '../../../../src/offline-model/script'
import { startHost } from '../../../helpers/host'
import { BIN, REPO_ROOT } from '../../../helpers/processes'
import { tempWorkspace } from '../../../helpers/workspace'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  rosterWith,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code crash test skipped: ${missing}`)

const TASK = 'Write the release notes.'

/** How many times `needle` occurs in the JSON of a request's messages. */
function occurrences(messages: unknown, needle: string): number {
  return JSON.stringify(messages).split(needle).length - 1
}

describe.skipIf(missing !== null)('a Claude Code teammate killed with the app', () => {
  it('resumes its session after a SIGKILL, holding its mail exactly once, and new mail arrives once', async () => {
    const { dir: workspace } = tempWorkspace()
    const { dir: data } = tempWorkspace('agent-teams-data-')
    rosterWith(workspace, [{ name: 'alice', engine: 'claude-code' }])

    // The run to be killed: the lead sends alice her task; at alice's first model call, it dies.
    let kill: () => void = () => undefined
    const dying: Script = (_request, context) => {
      if (context.agent === 'alice') {
        kill()
        return { fault: 'stall', afterEvents: 0, milliseconds: 30_000 }
      }
      return context.agentCall === 1
        ? toolCall('send_message', { to: 'alice', content: TASK })
        : text('Sent.')
    }
    const server = await OfflineModelServer.start({ script: dying, apiKey: 'test-key' })
    onTestFinished(() => server.close())
    const child = spawn(
      process.execPath,
      [BIN, 'chat', 'Give alice her task.', '--workspace', workspace, '--trust-workspace'],
      {
        cwd: REPO_ROOT,
        stdio: 'ignore',
        env: {
          ...process.env,
          NO_COLOR: '1',
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          MODEL_ID: CLAUDE_CODE_TEST_MODEL,
          XDG_DATA_HOME: data,
          ...CLAUDE_CODE_TEST_ENV,
        },
      },
    )
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('close', (_code, signal) => resolve(signal)),
    )
    kill = () => child.kill('SIGKILL')
    onTestFinished(() => void child.kill('SIGKILL'))
    expect(await closed).toBe('SIGKILL')
    const sessions = JSON.parse(
      readFileSync(join(data, 'agent-teams', 'workspaces', ...sessionsPath(data)), 'utf8'),
    ) as {
      sessions: Record<string, { session_id: string; sent_through: number; handed_through: number }>
    }
    const before = sessions.sessions['alice']
    // Handed over, and the answer never came.
    expect(before?.handed_through).toBeGreaterThan(before?.sent_through ?? 0)

    // The app starts again: alice goes on in the same session, her task held once.
    const seen: unknown[][] = []
    const again = await startHost(
      (request, context) => {
        if (context.agent === 'alice') {
          seen.push(request.messages)
          return seen.length === 1 ? text('Working on the notes.') : text('Got the second one.')
        }
        return text('ok')
      },
      {
        workspace,
        dataFolder: join(data, 'agent-teams'),
        endpoint: { model: CLAUDE_CODE_TEST_MODEL },
        claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
      },
    )
    await again.host.whenIdle()
    expect(seen).toHaveLength(1)
    expect(occurrences(seen[0], TASK)).toBe(1)

    // New mail after the restart arrives once, in the same session (the task is still there).
    again.host.send({ to: 'alice', content: 'And the changelog.' })
    await again.host.whenIdle()
    expect(seen).toHaveLength(2)
    expect(occurrences(seen[1], TASK)).toBe(1)
    expect(occurrences(seen[1], 'And the changelog.')).toBe(1)
    const inbox = again.records('alice', 'inbox').flatMap((record) => record.messages)
    expect(inbox.map((message) => message.content)).toEqual([TASK, 'And the changelog.'])
  }, 90_000)
})

/** The workspace's data folder name is derived from its path: find the one made. */
function sessionsPath(data: string): string[] {
  const [folder] = readdirSync(join(data, 'agent-teams', 'workspaces'))
  return [folder ?? '', 'claude-code', 'sessions.json']
}
