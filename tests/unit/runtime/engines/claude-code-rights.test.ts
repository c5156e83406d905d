import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import type { NeedsYouEntry } from '../../../../src/shared/needs-you'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  rosterWith,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code rights tests skipped: ${missing}`)

/** A host whose alice is a Claude Code teammate playing `replies`, the lead answering "ok". */
async function team(
  dir: string,
  replies: Reply[],
  member: { profile?: string; approval?: string } = {},
): Promise<HostUnderTest> {
  rosterWith(dir, [{ name: 'alice', engine: 'claude-code', ...member }])
  return startHost(
    (_request, context) =>
      context.agent === 'alice' ? (replies.shift() ?? text('nothing more')) : text('ok'),
    {
      workspace: dir,
      endpoint: { model: CLAUDE_CODE_TEST_MODEL },
      claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
    },
  )
}

function results(target: HostUnderTest): { name: string; content: string; error: boolean }[] {
  return target
    .records('alice', 'tool-result')
    .map((record) => ({ name: record.name, content: record.content, error: record.is_error }))
}

describe.skipIf(missing !== null)('a Claude Code teammate keeps to its rights', () => {
  it('asks the person through Needs-you in ask mode, and runs only what was approved', async () => {
    const { dir } = tempWorkspace()
    const target = await team(
      dir,
      [
        toolCall('Bash', { command: 'echo approved > approved.txt', description: 'write' }),
        toolCall('Bash', { command: 'echo denied > denied.txt', description: 'write' }),
        text('Done.'),
      ],
      { approval: 'ask' },
    )
    target.host.send({ to: 'alice', content: 'Run the two commands.' })
    const first = await pendingEntry(target, 1)
    expect(first.agent).toBe('alice')
    expect(first.summary).toContain('echo approved > approved.txt')
    target.host.answerNeedsYou({ id: first.id, decision: 'approve' })
    const second = await pendingEntry(target, 2)
    target.host.answerNeedsYou({ id: second.id, decision: 'deny', text: 'not that one' })
    await target.host.whenIdle()
    expect(readFileSync(join(dir, 'approved.txt'), 'utf8')).toBe('approved\n')
    expect(existsSync(join(dir, 'denied.txt'))).toBe(false)
    expect(results(target)[1]).toMatchObject({ name: 'Bash', error: true })
    expect(results(target)[1]?.content).toContain('not that one')
  }, 60_000)

  it('is refused what its profile does not give (a reviewer writes nothing)', async () => {
    const { dir } = tempWorkspace()
    const target = await team(
      dir,
      [
        toolCall('Write', { file_path: join(dir, 'x.txt'), content: 'x' }),
        toolCall('Bash', { command: 'ls', description: 'list' }),
        text('Done.'),
      ],
      { profile: 'reviewer' },
    )
    target.host.send({ to: 'alice', content: 'Try to write.' })
    await target.host.whenIdle()
    expect(existsSync(join(dir, 'x.txt'))).toBe(false)
    const [write, bash] = results(target)
    expect(write).toMatchObject({ name: 'Write', error: true })
    expect(write?.content).toContain('profile')
    expect(bash).toMatchObject({ name: 'Bash', error: true })
  }, 60_000)

  it('cannot write outside its workspace, with Write or with Bash: the whole process is sandboxed', async () => {
    const { dir } = tempWorkspace()
    const outside = mkdtempSync(join(tmpdir(), 'agent-teams-outside-'))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    const target = await team(dir, [
      toolCall('Write', { file_path: join(outside, 'by-write.txt'), content: 'x' }),
      toolCall('Bash', {
        command: `echo x > ${join(outside, 'by-bash.txt')}; echo ran`,
        description: 'escape',
      }),
      toolCall('Bash', {
        command: `cat ${join(dir, '.team', 'config.json')} > /dev/null && echo x >> ${join(dir, '.team', 'config.json')}; echo ran`,
        description: 'control',
      }),
      text('Done.'),
    ])
    target.host.send({ to: 'alice', content: 'Escape.' })
    await target.host.whenIdle()
    expect(existsSync(join(outside, 'by-write.txt'))).toBe(false)
    expect(existsSync(join(outside, 'by-bash.txt'))).toBe(false)
    expect(readFileSync(join(dir, '.team', 'config.json'), 'utf8')).not.toMatch(/\nx\n?$/)
    const [write, bash, team2] = results(target)
    expect(write?.error).toBe(true)
    expect(bash?.content).toMatch(/read-only file system/i)
    expect(team2?.content).toMatch(/read-only file system/i)
  }, 60_000)

  it("never holds the team's key: its process has only a relay token", async () => {
    const { dir } = tempWorkspace()
    const target = await team(dir, [
      toolCall('Bash', {
        command:
          'echo key=${ANTHROPIC_API_KEY%%-*}; e=$(cat /proc/*/environ 2>/dev/null | tr \'\\0\' \'\\n\'); echo "relay=$(echo "$e" | grep -c relay-) real=$(echo "$e" | grep -c test-key)"',
        description: 'look for the key',
      }),
      text('Done.'),
    ])
    target.host.send({ to: 'alice', content: 'Look.' })
    await target.host.whenIdle()
    const [look] = results(target)
    expect(look?.content).toContain('key=relay')
    expect(look?.content).not.toContain('key=test')
    // Its own environment is readable there (the token shows), and the real key is nowhere.
    expect(look?.content).toMatch(/relay=[1-9]\d* real=0/)
  }, 60_000)
})

async function pendingEntry(target: HostUnderTest, count: number): Promise<NeedsYouEntry> {
  await waitFor(
    () =>
      target.host.needsYou.pending().length === 1 &&
      target.host.needsYou.entries().length === count,
    () => `entry ${count} pending (have ${JSON.stringify(target.host.needsYou.entries())})`,
    // Claude Code's start is seconds on a loaded machine.
    { timeout: 30_000 },
  )
  return target.host.needsYou.pending()[0] as NeedsYouEntry
}
