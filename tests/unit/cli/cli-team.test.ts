import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { queueScript, text, type QueueScript } from '../../../src/offline-model/script'
import { runAgentTeams, type BinFinished } from '../../helpers/bin'
import { cli, jsonLines } from '../../helpers/cli'
import { gitIn, gitWorkspace } from '../../helpers/git'
import { tempWorkspace } from '../../helpers/workspace'

const DEMO_TIMEOUT_MS = 60_000

/** A settings folder of its own (XDG_CONFIG_HOME), empty unless `settings` is given. */
function configHome(settings?: string): string {
  const { dir } = tempWorkspace('agent-teams-config-')
  if (settings !== undefined) {
    mkdirSync(join(dir, 'agent-teams'))
    writeFileSync(join(dir, 'agent-teams', 'settings.json'), settings)
  }
  return dir
}

async function offlineServer(
  script: QueueScript,
  apiKey = 'test-key',
): Promise<OfflineModelServer> {
  const server = await OfflineModelServer.start({ script, apiKey })
  onTestFinished(() => server.close())
  return server
}

describe('agent-teams demo (the real binary)', () => {
  let workspace = ''
  let result: BinFinished

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-cli-demo-'))
    result = await runAgentTeams(['demo', '--workspace', workspace], {
      env: { XDG_CONFIG_HOME: join(workspace, 'no-config') },
      timeoutMs: DEMO_TIMEOUT_MS,
    })
  }, DEMO_TIMEOUT_MS + 5_000)
  afterAll(() => rmSync(workspace, { recursive: true, force: true }))

  it('exits 0, prints the team activity and leaves the work and the transcripts behind', () => {
    expect(result.timedOut).toBe(false)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.lines[0]).toBe(
      `Offline demo in ${workspace} (model server ${/http:\/\/127\.0\.0\.1:\d+/.exec(result.stdout)?.[0] ?? '?'})`,
    )
    expect(result.stdout).toContain('[lead] → spawn_teammate')
    expect(result.stdout).toContain('[alice] → write_file {"path":"demo/stats.mjs"')
    expect(result.stdout).toContain('[alice → bob] (message) demo/stats.mjs is ready')
    expect(result.stdout).toContain('[bob] → bash {"command":"node --test demo/stats.test.mjs"}')
    expect(result.stdout).toContain('[bob → lead] (message) All 4 tests passed.')
    expect(result.stdout).toMatch(/^\[lead\] Done\. .*tests pass/m)
    expect(result.stdout).toContain(`The team's work is in ${workspace}`)
    // How to see the same team in the app, with a command that can be pasted as it is.
    expect(result.stdout).toContain('File > Open Folder')
    expect(result.lines).toContain(`  agent-teams serve --workspace ${workspace}`)

    expect(existsSync(join(workspace, 'demo/stats.mjs'))).toBe(true)
    expect(existsSync(join(workspace, 'demo/stats.test.mjs'))).toBe(true)
    const transcripts = readdirSync(join(workspace, '.team/transcripts'))
    expect(transcripts.filter((name) => name.endsWith('.jsonl')).sort()).toEqual([
      'alice.jsonl',
      'bob.jsonl',
      'lead.jsonl',
    ])
  })

  it('transcript <name> prints the transcript readably', async () => {
    const shown = await runAgentTeams(['transcript', 'bob', '--workspace', workspace])
    expect(shown.stderr).toBe('')
    expect(shown.code).toBe(0)
    expect(shown.lines[0]).toMatch(/^#1 lead: Wait for alice's message/)
    expect(shown.stdout).toMatch(/^#\d+ inbox ← alice \(message\): demo\/stats\.mjs is ready/m)
    expect(shown.stdout).toMatch(/^#\d+ bob → write_file \{"path":"demo\/stats\.test\.mjs"/m)
    expect(shown.stdout).toMatch(
      /^#\d+ bob → bash \{"command":"node --test demo\/stats\.test\.mjs"\}$/m,
    )
    expect(shown.stdout).toMatch(/^#\d+ ← bash: (TAP version 13|✔ mean of a list .*)$/m)
    expect(shown.stdout).toMatch(/^[#ℹ] pass 4$/m)
    expect(shown.stdout).toMatch(/^#\d+ bob: Reported to the lead\.$/m)
  })

  it('transcript <name> --json prints one versioned record a line', async () => {
    const shown = await cli(['transcript', 'bob', '--json', '--workspace', workspace])
    expect(shown.stderr).toBe('')
    expect(shown.code).toBe(0)
    const records = jsonLines(shown)
    expect(records.length).toBeGreaterThan(5)
    for (const record of records) {
      expect(record.v).toBe(1)
      expect(typeof record.kind).toBe('string')
    }
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1))
    expect(new Set(records.map((record) => record.kind))).toEqual(
      new Set(['user', 'assistant', 'inbox', 'tool-result']),
    )
  })

  it('transcript of an agent not on the team exits 1; of an invalid name exits non-zero', async () => {
    const none = await cli(['transcript', 'carol', '--workspace', workspace])
    expect(none.code).toBe(1)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(
      /"carol" is not on the roster of .*; "agent-teams roster" lists the team/,
    )
    const noneJson = await cli(['transcript', 'carol', '--json', '--workspace', workspace])
    expect(noneJson.code).toBe(1)
    expect(noneJson.stdout).toBe('')

    for (const name of ['../lead', 'Bob', '']) {
      const invalid = await cli(['transcript', name, '--workspace', workspace])
      expect(invalid.code, name).not.toBe(0)
      expect(invalid.stdout, name).toBe('')
      expect(invalid.stderr, name).toContain('is not an agent name')
    }
    expect((await cli(['transcript', '--workspace', workspace])).code).toBe(2)
  })
})

describe('agent-teams demo in a git repository (the real binary)', () => {
  it(
    'puts the work on the board and says which branches hold it',
    async () => {
      const workspace = gitWorkspace({ 'README.md': '# Project\n' })
      const result = await runAgentTeams(['demo', '--workspace', workspace], {
        env: { XDG_CONFIG_HOME: configHome() },
        timeoutMs: DEMO_TIMEOUT_MS,
      })
      expect(result.timedOut).toBe(false)
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('[lead] → create_task {"subject":"Write demo/stats.mjs"')
      expect(result.stdout).toContain('[alice] → claim_task {"id":"1"}')
      expect(result.stdout).toContain(
        "Each teammate's work is on its own branch (team/alice, team/bob)",
      )
      const tasks = await runAgentTeams(['tasks', 'list', '--workspace', workspace])
      expect(tasks.code).toBe(0)
      expect(tasks.lines).toEqual([
        '#1 [done] Write demo/stats.mjs (owner: alice)',
        '#2 [review] Test demo/stats.mjs (owner: bob; after 1)',
      ])
      expect(gitIn(workspace, 'show', 'team/bob:demo/stats.test.mjs')).toContain('node:test')
    },
    DEMO_TIMEOUT_MS + 5_000,
  )
})

describe('agent-teams demo --json (the real binary)', () => {
  it(
    'prints one JSON event a line and nothing else',
    async () => {
      const { dir } = tempWorkspace()
      const result = await runAgentTeams(['demo', '--json', '--workspace', dir], {
        env: { XDG_CONFIG_HOME: configHome() },
        timeoutMs: DEMO_TIMEOUT_MS,
      })
      expect(result.timedOut).toBe(false)
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      const events = result.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(events.length).toBeGreaterThan(10)
      for (const event of events) expect(typeof event.type).toBe('string')
      const types = new Set(events.map((event) => event.type))
      for (const type of [
        'agent-status-changed',
        'text-delta',
        'tool-call-finished',
        'message-sent',
      ])
        expect(types).toContain(type)
      const reports = events.filter(
        (event) =>
          event.type === 'message-sent' &&
          (event.message as { from: string; to: string }).from === 'bob' &&
          (event.message as { to: string }).to === 'lead',
      )
      expect(reports).toHaveLength(1)
      expect(existsSync(join(dir, 'demo/stats.test.mjs'))).toBe(true)
    },
    DEMO_TIMEOUT_MS + 5_000,
  )
})

describe('agent-teams chat (the real binary)', () => {
  it('without a key or settings exits non-zero and points at ANTHROPIC_API_KEY and the demo', async () => {
    const { dir } = tempWorkspace()
    const result = await runAgentTeams(['chat', 'hello', '--workspace', dir], {
      env: { XDG_CONFIG_HOME: configHome() },
    })
    expect(result.code).not.toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('ANTHROPIC_API_KEY')
    expect(result.stderr).toContain('agent-teams demo')
    expect(existsSync(join(dir, '.team'))).toBe(false)
  })

  it('talks to the endpoint of the environment and prints the lead’s reply', async () => {
    const script = queueScript({ lead: [text('Hello from the offline lead.')] })
    const server = await offlineServer(script)
    const { dir } = tempWorkspace()
    const result = await runAgentTeams(['chat', 'hello', '--workspace', dir], {
      env: {
        XDG_CONFIG_HOME: configHome(),
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: server.url,
        MODEL_ID: 'x',
      },
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('[lead] Hello from the offline lead.')
    script.assertConsumed()
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key')
    expect(server.requests[0]?.body.model).toBe('x')
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain('hello')
  })

  it('exits 1 and names the error when the endpoint refuses the key (401)', async () => {
    const script = queueScript({ lead: [text('never sent')] })
    const server = await offlineServer(script, 'other')
    const { dir } = tempWorkspace()
    const result = await runAgentTeams(['chat', 'hello', '--workspace', dir], {
      env: {
        XDG_CONFIG_HOME: configHome(),
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: server.url,
        MODEL_ID: 'x',
      },
    })
    expect(server.requests.length).toBeGreaterThan(0)
    expect(server.requests.every((request) => 'error' in request.reply)).toBe(true)
    // One alert for the whole team, pointing to the settings, rather than one error per agent.
    expect(result.stdout).toMatch(/\[team\] .*401.*Settings/)
    // The team ended in error, so the command must say so on stderr and exit 1.
    expect(result.stderr).toMatch(/lead ended in error: .*401/)
    expect(result.code).toBe(1)
  })

  it('uses the settings file when the environment has no model settings', async () => {
    const script = queueScript({ lead: [text('Configured by the settings file.')] })
    const server = await offlineServer(script)
    const { dir } = tempWorkspace()
    const settings = { apiKey: 'test-key', baseURL: server.url, model: 'from-settings' }
    const result = await runAgentTeams(['chat', 'hello', '--workspace', dir], {
      env: { XDG_CONFIG_HOME: configHome(JSON.stringify(settings)) },
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('[lead] Configured by the settings file.')
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key')
    expect(server.requests[0]?.body.model).toBe('from-settings')
  })

  it('an invalid settings file gives a clear error naming the file', async () => {
    const { dir } = tempWorkspace()
    for (const [settings, problem] of [
      ['{not json', 'is not valid JSON'],
      ['{"apiKey": 42}', 'is invalid: apiKey'],
    ] as const) {
      const home = configHome(settings)
      const result = await runAgentTeams(['chat', 'hello', '--workspace', dir], {
        env: { XDG_CONFIG_HOME: home },
      })
      expect(result.code, settings).toBe(1)
      expect(result.stdout, settings).toBe('')
      expect(result.stderr, settings).toContain(join(home, 'agent-teams', 'settings.json'))
      expect(result.stderr, settings).toContain(problem)
      expect(result.stderr, settings).not.toMatch(/unexpected failure|\n\s+at /)
    }
  })

  it('takes exactly one argument', async () => {
    const none = await cli(['chat'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('expected one argument')
    const two = await cli(['chat', 'a', 'b'])
    expect(two.code).toBe(2)
  })
})
