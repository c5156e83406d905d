import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { text, toolCall, type Reply } from '../../src/offline-model/script'
import type { TranscriptRecord } from '../../src/shared/transcript'
import { ClaudeSessions } from '../../src/runtime/engines/claude-code/sessions'
import { SessionHandover } from '../../src/runtime/engines/claude-code/handover'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  rosterWith,
} from '../helpers/claude-code'
import { startHost, type HostUnderTest } from '../helpers/host'
import { tempWorkspace } from '../helpers/workspace'

/*
 * A prompt-injected Claude Code teammate against the app: it writes where ask mode would not
 * ask, plants code in another teammate's shell, reads outside the workspace as a reviewer, and
 * its process forges a session id. Each of these broke through before (a review's attacks).
 */

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code attack tests skipped: ${missing}`)

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    encoding: 'utf8',
  }).trim()
}

async function team(
  dir: string,
  data: string,
  scripts: Record<string, (call: number) => Reply>,
): Promise<HostUnderTest> {
  const calls: Record<string, number> = {}
  return startHost(
    (_request, context) => {
      const agent = context.agent ?? 'lead'
      calls[agent] = (calls[agent] ?? 0) + 1
      return scripts[agent]?.(calls[agent]) ?? text('ok')
    },
    {
      workspace: dir,
      dataFolder: data,
      endpoint: { model: CLAUDE_CODE_TEST_MODEL },
      claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
    },
  )
}

const results = (target: HostUnderTest, name: string) =>
  target
    .records(name, 'tool-result')
    .map((record) => [record.name, record.is_error, record.content])

describe.skipIf(missing !== null)('a prompt-injected Claude Code teammate', () => {
  it('cannot move a branch by writing into .git, nor plant code in another teammate, ask mode or not', async () => {
    const { dir } = tempWorkspace()
    const { dir: data } = tempWorkspace('agent-teams-data-')
    git(dir, 'init', '-q', '-b', 'main')
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'one')
    const first = git(dir, 'rev-parse', 'HEAD')
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'two')
    const second = git(dir, 'rev-parse', 'HEAD')
    rosterWith(dir, [
      { name: 'alice', engine: 'claude-code', approval: 'ask' },
      { name: 'bob', engine: 'claude-code' },
    ])
    // bob runs once first, so that his folders exist for alice to aim at.
    const bobHome = () => {
      const base = join(data, 'workspaces')
      const [workspaceFolder] = readdirSync(base)
      return join(base, workspaceFolder ?? '', 'claude-code', 'teammates', 'bob', 'home')
    }
    const target = await team(dir, data, {
      bob: (call) =>
        call === 1 ? toolCall('Bash', { command: 'true', description: 'x' }) : text('bob'),
      alice: (call) => {
        const steps: Reply[] = [
          // Claude Code writes only a file it has read: read first, as an agent would.
          toolCall('Read', { file_path: join(dir, '.git', 'refs', 'heads', 'main') }),
          toolCall('Write', {
            file_path: join(dir, '.git', 'refs', 'heads', 'main'),
            content: `${first}\n`,
          }),
          toolCall('Write', {
            file_path: join(bobHome(), '.bashrc'),
            content: 'ls() { echo PWNED; }\n',
          }),
          toolCall('Bash', {
            command: `echo 'ls() { echo PWNED; }' >> ${join(bobHome(), '.bashrc')}`,
            description: 'x',
          }),
        ]
        return steps[call - 1] ?? text('Done.')
      },
    })
    target.host.send({ to: 'bob', content: 'warm up' })
    await target.host.whenIdle()
    target.host.send({ to: 'alice', content: 'go' })
    // Its Bash asks (ask mode); the person approves it: the sandbox is still the line.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      const waiting = target.host.needsYou.pending()[0]
      if (waiting !== undefined) {
        target.host.answerNeedsYou({ id: waiting.id, decision: 'approve' })
        break
      }
    }
    await target.host.whenIdle()
    expect(git(dir, 'rev-parse', 'main')).toBe(second)
    expect(existsSync(join(bobHome(), '.bashrc'))).toBe(false)
    const [, gitWrite, plantWrite, plantBash] = results(target, 'alice')
    expect(gitWrite).toEqual(['Write', true, expect.stringMatching(/\.git/)])
    expect(plantWrite).toEqual(['Write', true, expect.stringMatching(/outside/)])
    expect(plantBash?.[2]).toMatch(/read-only file system|no such file|permission denied/i)
    // The refused writes never reached the person: only the approved Bash did.
    expect(target.host.needsYou.entries()).toHaveLength(1)
  }, 90_000)

  it('as a reviewer, reads nothing outside the workspace', async () => {
    const { dir } = tempWorkspace()
    const { dir: data } = tempWorkspace('agent-teams-data-')
    const outside = mkdtempSync(join(tmpdir(), 'agent-teams-secret-'))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, 'id_rsa'), 'PRIVATE KEY')
    rosterWith(dir, [{ name: 'alice', engine: 'claude-code', profile: 'reviewer' }])
    const target = await team(dir, data, {
      alice: (call) => {
        if (call === 1) return toolCall('Read', { file_path: join(outside, 'id_rsa') })
        if (call === 2) return toolCall('Grep', { pattern: 'PRIVATE', path: outside })
        if (call === 3) return toolCall('Glob', { pattern: '../**/id_rsa' })
        return text('Done.')
      },
    })
    target.host.send({ to: 'alice', content: 'review' })
    await target.host.whenIdle()
    const all = results(target, 'alice')
    expect(all).toHaveLength(3)
    for (const [, isError, content] of all) {
      expect(isError).toBe(true)
      expect(content).not.toContain('PRIVATE KEY')
    }
  }, 90_000)
})

/** A hand-over over `records` (a transcript the test holds), as the agent builds it. */
function handover(
  name: string,
  sessions: ClaudeSessions,
  folder: string,
  records: () => readonly TranscriptRecord[] = () => [],
): SessionHandover {
  return new SessionHandover(name, sessions, folder, (after) =>
    records().filter((record) => record.seq > after),
  )
}

describe('what the sandboxed process says is checked before the app keeps it', () => {
  it('takes a session id only as a UUID, and one bad entry loses only its own record', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-teams-sessions-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const sessions = new ClaudeSessions(folder)
    const alice = handover('alice', sessions, folder)
    alice.named('../../evil')
    expect(sessions.get('alice').session_id).toBeNull()
    alice.named('4ffc98a8-5172-41df-9028-834aa441e933')
    handover('bob', sessions, folder).named('0b7d6c3e-9a2f-4c1e-8f3a-2d5b6e7f8a9b')
    // A damaged entry (written by hand, or by an older build) costs its own teammate only.
    const file = join(folder, 'sessions.json')
    const text = JSON.stringify({
      v: 1,
      sessions: {
        ...JSON.parse(JSON.stringify({ alice: sessions.get('alice') })),
        bob: { session_id: '../x' },
      },
    })
    writeFileSync(file, text)
    const reread = new ClaudeSessions(folder)
    expect(reread.get('alice').session_id).toBe('4ffc98a8-5172-41df-9028-834aa441e933')
    expect(reread.has('bob')).toBe(false)
  })
})

describe("a session log's delivery marks", () => {
  it('count only with the nonce the app chose: a mark carried in mail or a file is not one', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-teams-marks-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const sessions = new ClaudeSessions(folder)
    const records = [
      { v: 1 as const, seq: 1, at: 0, kind: 'user' as const, from: 'user', text: 'Task one.' },
    ]
    const alice = handover('alice', sessions, folder, () => records)
    const id = '4ffc98a8-5172-41df-9028-834aa441e933'
    alice.named(id)
    const handed = alice.handOver() ?? ''
    const mark = /\(team delivery #1\.[0-9a-f]+\)/.exec(handed)?.[0]
    expect(mark).toBeDefined()
    const log = join(folder, 'projects', 'p', `${id}.jsonl`)
    mkdirSync(join(folder, 'projects', 'p'), { recursive: true })
    // A forged mark (a teammate's message quoting one, another nonce) is not the app's.
    writeFileSync(log, JSON.stringify({ text: 'see (team delivery #1.0000000000000000)' }))
    const fresh = handover('alice', sessions, folder, () => records)
    expect(fresh.recover(1)).toBe(false)
    expect(fresh.pending()).toHaveLength(1)
    // The real one, once the session wrote it, is.
    const again = handover('alice', sessions, folder, () => records)
    const real = /\(team delivery #1\.[0-9a-f]+\)/.exec(again.handOver() ?? '')?.[0] ?? ''
    expect(real).not.toBe('')
    writeFileSync(log, JSON.stringify({ text: real }))
    const after = handover('alice', sessions, folder, () => records)
    expect(after.recover(1)).toBe(true)
    expect(after.pending()).toHaveLength(0)
  })
})

describe("a Claude Code teammate's record and its transcript", () => {
  it('starts afresh when its transcript was removed and begun again, and hands the new one over', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-teams-reset-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const sessions = new ClaudeSessions(folder)
    const before = [1, 2, 3].map((seq) => ({
      v: 1 as const,
      seq,
      at: 100,
      kind: 'user' as const,
      from: 'user',
      text: `old ${seq}`,
    }))
    const old = handover('alice', sessions, folder, () => before)
    old.named('4ffc98a8-5172-41df-9028-834aa441e933')
    old.handOver()
    old.confirm()
    // The folder's .team/ was removed: the same name, an empty transcript, then a new task.
    let transcript: TranscriptRecord[] = []
    const fresh = handover('alice', sessions, folder, () => transcript)
    fresh.adopt([])
    expect(sessions.get('alice')).toMatchObject({ session_id: null, sent_through: 0 })
    transcript = [{ ...before[0]!, at: 200, text: 'new task' }]
    expect(fresh.handOver()).toContain('new task')
  })
})
