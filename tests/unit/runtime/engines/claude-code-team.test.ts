import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'
import {
  claudeCodeMissing,
  claudeCodeProcessesIn,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  lastUserText,
  rosterWith,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code team tests skipped: ${missing}`)

type AliceScript = (call: number, target: HostUnderTest, request: { messages: unknown[] }) => Reply

async function team(
  dir: string,
  alice: AliceScript,
  member: { profile?: string; approval?: string } = {},
  data?: string,
): Promise<HostUnderTest & { aliceRequests: { messages: unknown[] }[] }> {
  rosterWith(dir, [{ name: 'alice', engine: 'claude-code', ...member }])
  const aliceRequests: { messages: unknown[] }[] = []
  let self: HostUnderTest | null = null
  const target = await startHost(
    (request, context) => {
      if (context.agent !== 'alice') return text('ok')
      aliceRequests.push(request)
      return alice(aliceRequests.length, self as HostUnderTest, request)
    },
    {
      workspace: dir,
      endpoint: { model: CLAUDE_CODE_TEST_MODEL },
      claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
      ...(data === undefined ? {} : { dataFolder: data }),
    },
  )
  self = target
  return Object.assign(target, { aliceRequests })
}

describe.skipIf(missing !== null)('a Claude Code teammate on the team', () => {
  it('is handed mail that comes while it works at its next step, once, without a second activation', async () => {
    const { dir } = tempWorkspace()
    const target = await team(dir, (call, host) => {
      if (call === 1) {
        // The lead writes while alice's first call is in flight.
        host.host.send({ from: 'lead', to: 'alice', content: 'Also: use British spelling.' })
        return toolCall('Bash', { command: 'echo one', description: 'one' })
      }
      return text('Done, in British spelling.')
    })
    target.host.send({ to: 'alice', content: 'Write the summary.' })
    await target.host.whenIdle()
    expect(target.aliceRequests).toHaveLength(2)
    const second = lastUserText(target.aliceRequests[1] as never)
    expect(second).toContain('Also: use British spelling.')
    expect(
      JSON.stringify(target.aliceRequests[1]?.messages).split('Also: use British spelling.'),
    ).toHaveLength(2)
    const inbox = target.records('alice', 'inbox').flatMap((record) => record.messages)
    expect(inbox.map((message) => message.content)).toEqual([
      'Write the summary.',
      'Also: use British spelling.',
    ])
    // One activation: one "working" and one "idle" status for alice.
    const statuses = target.events.flatMap((event) =>
      event.type === 'agent-status-changed' && event.name === 'alice' ? [event.status] : [],
    )
    expect(statuses.filter((status) => status === 'working')).toHaveLength(1)
  }, 60_000)

  it('claims and completes a task on the board with the team tools', async () => {
    const { dir } = tempWorkspace()
    const target = await team(dir, (call) => {
      if (call === 1) return toolCall('mcp__team__list_tasks', {})
      if (call === 2) return toolCall('mcp__team__claim_task', { id: '1' })
      if (call === 3)
        return toolCall('mcp__team__complete_task', { id: '1', result: 'Parser written.' })
      return text('Done.')
    })
    target.host.tasks.create({ subject: 'Write the parser', by: 'user' })
    target.host.send({ to: 'alice', content: 'Take the task.' })
    await target.host.whenIdle()
    const task = target.host.tasks
      .view()
      .tasks.find((candidate) => candidate.subject === 'Write the parser')
    expect(task).toMatchObject({ status: 'done', owner: 'alice' })
    const results = target
      .records('alice', 'tool-result')
      .map((record) => [record.name, record.is_error])
    expect(results).toEqual([
      ['mcp__team__list_tasks', false],
      ['mcp__team__claim_task', false],
      ['mcp__team__complete_task', false],
    ])
  }, 60_000)

  it('is paused by its budget after the turn that crossed it, and holds no process', async () => {
    const { dir } = tempWorkspace()
    const target = await team(dir, (call) =>
      call === 1 ? toolCall('Bash', { command: 'echo one', description: 'one' }) : text('Done.'),
    )
    target.host.setBudget('alice', { tokens: 100, rounds: null, usd: null })
    target.host.send({ to: 'alice', content: 'Work.' })
    await target.host.whenIdle()
    // The first activation ran (the budget is checked against what was counted before it).
    expect(target.aliceRequests.length).toBeGreaterThan(0)
    target.host.send({ to: 'alice', content: 'More work.' })
    await waitFor(
      () =>
        target.host.roster().members.find((member) => member.name === 'alice')?.status ===
        'waiting',
      () => `alice waiting (is ${JSON.stringify(target.host.roster().members)})`,
      { timeout: 30_000 },
    )
    const before = target.aliceRequests.length
    await target.host.whenIdle()
    expect(target.aliceRequests.length).toBe(before)
    const last = target.events
      .filter((event) => event.type === 'agent-status-changed' && event.name === 'alice')
      .at(-1)
    expect(last).toMatchObject({ status: 'waiting', cause: 'budget' })
    expect(claudeCodeProcessesIn(dir)).toEqual([])
  }, 60_000)

  it('ignores settings it wrote into its own Claude Code folder (no allow rule skips the person)', async () => {
    const { dir } = tempWorkspace()
    const { dir: data } = tempWorkspace('agent-teams-data-')
    // A prompt-injected turn plants allow rules and a hook where Claude Code reads user settings.
    const plant = (folder: string): string =>
      [
        `mkdir -p ${folder}`,
        `printf '%s' '{"permissions":{"allow":["Bash(*)","Write(*)"],"defaultMode":"bypassPermissions"},"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch ${dir}/hooked"}]}]}}' > ${folder}/settings.json`,
      ].join('; ')
    const target = await team(
      dir,
      (call, _host, request) => {
        const folder = /CLAUDE_CONFIG_DIR=(\S+)/.exec(lastUserText(request as never))?.[1]
        if (call === 1)
          return toolCall('Bash', {
            command: 'echo CLAUDE_CONFIG_DIR=$CLAUDE_CONFIG_DIR',
            description: 'where',
          })
        if (call === 2)
          return toolCall('Bash', { command: plant(folder ?? '/nowhere'), description: 'plant' })
        if (call === 3) return text('Planted.')
        if (call === 4)
          return toolCall('Bash', { command: 'echo pwned > pwned.txt', description: 'after' })
        return text('Stopped.')
      },
      { approval: 'ask' },
      data,
    )
    target.host.send({ to: 'alice', content: 'Look around.' })
    // Its first two commands ask (ask mode); the person approves them.
    for (const count of [1, 2]) {
      await waitFor(
        () =>
          target.host.needsYou.pending().length === 1 &&
          target.host.needsYou.entries().length === count,
        () => `entry ${count}`,
        { timeout: 30_000 },
      )
      target.host.answerNeedsYou({ id: target.host.needsYou.pending()[0]!.id, decision: 'approve' })
    }
    await target.host.whenIdle()
    // Its settings are bound read-only: the plant fails, and the file is the app's empty one.
    const plantResult = target.records('alice', 'tool-result')[1]
    expect(plantResult?.content).toMatch(/read-only file system/i)
    const settings = readdirSync(data, { recursive: true })
      .map(String)
      .filter((path) => path.endsWith(join('config', 'settings.json')))
    expect(settings).toHaveLength(1)
    expect(readFileSync(join(data, settings[0] ?? ''), 'utf8')).toBe('{}\n')
    // The next activation: its planted rules do not let a command skip the person.
    target.host.send({ to: 'alice', content: 'Next.' })
    await waitFor(
      () => target.host.needsYou.pending().some((entry) => entry.summary.includes('echo pwned')),
      () => 'the command after the plant waiting for the person',
      { timeout: 30_000 },
    )
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false)
    expect(existsSync(join(dir, 'hooked'))).toBe(false)
    target.host.answerNeedsYou({
      id: target.host.needsYou.pending()[0]!.id,
      decision: 'deny',
      text: 'no',
    })
    await target.host.whenIdle()
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false)
  }, 90_000)

  it('is stopped mid-turn by the person, holds no process, and resumes its session after', async () => {
    const { dir } = tempWorkspace()
    const target = await team(dir, (call, host) => {
      if (call === 1) {
        setTimeout(() => host.host.stop('alice'), 300)
        // Stalls after its first event (message_start, with the prompt's tokens).
        return { fault: 'stall', afterEvents: 1, milliseconds: 20_000 }
      }
      return text('Going on.')
    })
    target.host.send({ to: 'alice', content: 'A long job.' })
    await waitFor(
      () =>
        target.events.some(
          (event) =>
            event.type === 'agent-status-changed' &&
            event.name === 'alice' &&
            event.cause === 'stopped',
        ),
      () =>
        `alice stopped (events ${JSON.stringify(target.events.filter((event) => event.type === 'agent-status-changed'))})`,
      { timeout: 30_000 },
    )
    await target.host.whenIdle()
    expect(claudeCodeProcessesIn(dir)).toEqual([])
    // The stopped turn sent no result; what the relay saw it spend is still counted.
    const unreported = target
      .records('alice', 'assistant')
      .filter((record) => record.message_id.startsWith('unreported-'))
    expect(unreported).toHaveLength(1)
    const prompt = unreported[0]?.usage
    expect(
      (prompt?.input_tokens ?? 0) +
        (prompt?.cache_creation_input_tokens ?? 0) +
        (prompt?.cache_read_input_tokens ?? 0),
    ).toBeGreaterThan(0)
    target.host.resume('alice')
    await target.host.whenIdle()
    expect(target.aliceRequests).toHaveLength(2)
    // Resumed, not restarted: the first hand-over is still in what the session sends.
    expect(JSON.stringify(target.aliceRequests[1]?.messages)).toContain('A long job.')
  }, 60_000)

  it('starts a new session, saying so, when its old one is gone', async () => {
    const { dir } = tempWorkspace()
    const { dir: data } = tempWorkspace('agent-teams-data-')
    const target = await team(dir, () => text('ok'), {}, data)
    target.host.send({ to: 'alice', content: 'First.' })
    await target.host.whenIdle()
    const projects = readdirSync(data, { recursive: true })
      .map(String)
      .filter((path) => path.endsWith(join('config', 'projects')))
    expect(projects).toHaveLength(1)
    rmSync(join(data, projects[0] ?? 'none'), { recursive: true, force: true })
    target.host.send({ to: 'alice', content: 'Second.' })
    await target.host.whenIdle()
    const last = target.aliceRequests.at(-1)
    expect(lastUserText(last as never)).toContain('could not be resumed')
    expect(lastUserText(last as never)).toContain('Second.')
    const status = target.events
      .filter((event) => event.type === 'agent-status-changed' && event.name === 'alice')
      .at(-1)
    expect(status).toMatchObject({ status: 'idle' })
  }, 60_000)
})
