import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { queueScript, text, toolCall } from '../../../src/offline-model/script'
import { runAgentTeams } from '../../helpers/bin'
import { STDIO_SERVER, stdioEntry, writeMcpJson } from '../../helpers/mcp'
import { tempWorkspace } from '../../helpers/workspace'

const TIMEOUT = { timeoutMs: 60_000 }

function setUp(): { workspace: string; env: Record<string, string> } {
  const workspace = tempWorkspace().dir
  writeMcpJson(workspace, {
    notes: stdioEntry(),
    broken: stdioEntry({ args: ['--crash-on-start'] }),
  })
  return { workspace, env: { XDG_CONFIG_HOME: tempWorkspace('agent-teams-config-').dir } }
}

describe('agent-teams mcp (the real binary)', () => {
  it('list: untrusted servers are not started; --trust-workspace shows tools and failures', async () => {
    const { workspace, env } = setUp()
    const untrusted = await runAgentTeams(['mcp', 'list', '--workspace', workspace], {
      env,
      ...TIMEOUT,
    })
    expect(untrusted.stdout).toContain('Not started: this workspace is not trusted yet.')
    expect(untrusted.stdout).toContain('notes (stdio, .mcp.json): off')

    const trusted = await runAgentTeams(
      ['mcp', 'list', '--trust-workspace', '--workspace', workspace],
      { env, ...TIMEOUT },
    )
    expect(trusted.stdout).toMatch(/notes \(stdio, \.mcp\.json\): running · 9 tools: echo, fail/)
    expect(trusted.stdout).toContain(`${process.execPath} ${STDIO_SERVER}`)
    expect(trusted.stdout).toMatch(
      /broken \(stdio, \.mcp\.json\): failed — it exited before it answered/,
    )
    expect(trusted.stdout).toContain('stderr: notes-server: cannot open the notes database')
    expect(trusted.code).toBe(1)
  }, 90_000)

  it('add and remove keep .team/mcp.json; mistakes are refused with the rule', async () => {
    const { workspace, env } = setUp()
    const added = await runAgentTeams(
      [
        'mcp',
        'add',
        'weather',
        '--url',
        'http://127.0.0.1:9/mcp',
        '--header',
        'X-Key: ${KEY}',
        '--workspace',
        workspace,
      ],
      { env, ...TIMEOUT },
    )
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    const local = await runAgentTeams(
      ['mcp', 'add', 'local', '--env', 'A=1', '--workspace', workspace, '--', 'node', '-e', '0'],
      { env, ...TIMEOUT },
    )
    expect(local.code).toBe(0)
    const file = JSON.parse(readFileSync(join(workspace, '.team/mcp.json'), 'utf8')) as unknown
    expect(file).toEqual({
      v: 1,
      mcpServers: {
        weather: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${KEY}' } },
        local: { command: 'node', args: ['-e', '0'], env: { A: '1' } },
      },
    })
    const twice = await runAgentTeams(
      ['mcp', 'add', 'notes', '--workspace', workspace, '--', 'node'],
      { env, ...TIMEOUT },
    )
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain('"notes" is already in .mcp.json')
    const badHeader = await runAgentTeams(
      [
        'mcp',
        'add',
        'x',
        '--url',
        'http://127.0.0.1/',
        '--header',
        'nocolon',
        '--workspace',
        workspace,
      ],
      { env, ...TIMEOUT },
    )
    expect(badHeader.code).toBe(2)
    expect(badHeader.stderr).toContain('write it as --header "Name: value"')
    const removed = await runAgentTeams(['mcp', 'remove', 'weather', '--workspace', workspace], {
      env,
      ...TIMEOUT,
    })
    expect(removed.code).toBe(0)
    const notOurs = await runAgentTeams(['mcp', 'remove', 'notes', '--workspace', workspace], {
      env,
      ...TIMEOUT,
    })
    expect(notOurs.stderr).toContain("comes from the workspace's .mcp.json; edit that file")
  }, 90_000)

  it("the person's own mcp add keeps a fresh workspace trusted; trust shows it", async () => {
    const workspace = tempWorkspace().dir
    const env = { XDG_CONFIG_HOME: tempWorkspace('agent-teams-config-').dir }
    const added = await runAgentTeams(
      ['mcp', 'add', 'local', '--workspace', workspace, '--', 'node', 'server.mjs'],
      { env, ...TIMEOUT },
    )
    expect(added.code).toBe(0)
    const shown = await runAgentTeams(['trust', '--json', '--workspace', workspace], {
      env,
      ...TIMEOUT,
    })
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toMatchObject({
      trusted: true,
      reason: 'agreed',
      grants: { mcpServers: [{ name: 'local', source: 'team' }] },
    })
  }, 90_000)

  it('chat without a terminal leaves the servers off and says why; --trust-workspace uses them', async () => {
    const { workspace, env } = setUp()
    const script = queueScript({
      lead: [text('no tools'), toolCall('mcp__notes__echo', { text: 'from the CLI' }), text('ok')],
    })
    const server = await OfflineModelServer.start({ script, apiKey: 'test-key' })
    onTestFinished(() => server.close())
    const model = { ...env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url }
    const off = await runAgentTeams(['chat', 'hello', '--workspace', workspace], {
      env: model,
      ...TIMEOUT,
    })
    expect(off.code).toBe(0)
    expect(off.stderr).toContain(
      'is not trusted, and there is no terminal to ask on: its MCP servers, allowed hosts, "approve always" rules and custom profiles are off',
    )
    expect(off.stderr).toContain('or for this run with --trust-workspace.')
    const on = await runAgentTeams(
      ['chat', 'use notes', '--trust-workspace', '--workspace', workspace],
      { env: model, ...TIMEOUT },
    )
    expect(on.stderr).toBe('')
    expect(on.code).toBe(0)
    expect(on.stdout).toContain('[lead] → mcp__notes__echo {"text":"from the CLI"}')
    expect(on.stdout).toContain('echo: from the CLI')
    script.assertConsumed()
  }, 120_000)
})
