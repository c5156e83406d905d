import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { WorkspaceTrustStore } from '../../../../src/runtime/trust/trust-store'
import { inspectTrust } from '../../../../src/runtime/trust/workspace-trust'
import { grantLabel } from '../../../../src/runtime/trust/grant-items'
import { holdsKeyLike, referencesSecret } from '../../../../src/runtime/trust/secret-marks'
import { queueScript, text } from '../../../../src/offline-model/script'
import { trustOptionsForRun } from '../../../../src/cli/workspace-trust'
import { startHost } from '../../../helpers/host'
import { stdioEntry, writeMcpJson } from '../../../helpers/mcp'
import { Capture } from '../../../helpers/streams'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const WAIT = { timeout: 20_000, interval: 20 }

function configFolder(): string {
  return tempWorkspace('agent-teams-config-').dir
}

describe('trusting a workspace before what it grants applies', () => {
  it('asks first; the answer starts the servers, is remembered, and a changed file asks again', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const store = new WorkspaceTrustStore(configFolder())
    const script = queueScript({ lead: [text('no tools yet'), text('now with tools')] })
    const first = await startHost(script, { workspace: dir, trust: { store } })
    // The app made .team/ (trusted for nothing), but .mcp.json's server is new: asked.
    const asked = first.host.trust.view()
    expect(asked).toMatchObject({ trusted: false, reason: 'not-reviewed' })
    expect(asked.changes.map((change) => [change.key, change.change])).toEqual([
      ['mcp:notes', 'new'],
    ])
    expect(first.host.mcp.state().servers[0]?.status).toBe('off')
    first.host.chat('Hello.')
    await first.host.whenIdle()
    const tools = (agentCall: number) =>
      (first.server.requests.filter((request) => request.agent === 'lead')[agentCall]?.body.tools ??
        []) as { name: string }[]
    expect(tools(0).some((tool) => tool.name.startsWith('mcp__'))).toBe(false)

    first.host.answerTrust(true)
    await waitFor(
      () => first.host.mcp.state().servers[0]?.status === 'running',
      () => JSON.stringify(first.host.mcp.state()),
      WAIT,
    )
    first.host.chat('Again.')
    await first.host.whenIdle()
    expect(tools(1).map((tool) => tool.name)).toContain('mcp__notes__echo')

    // Remembered: the next open starts them without asking.
    const second = await first.restart({ trust: { store } })
    expect(second.host.trust.view()).toMatchObject({ trusted: true, reason: 'agreed' })

    // A changed file is a changed grant: asked again, nothing started.
    writeMcpJson(dir, { notes: stdioEntry({ args: ['--changed'] }) })
    const third = await second.restart({ trust: { store } })
    expect(third.host.trust.view()).toMatchObject({
      trusted: false,
      reason: 'changed',
      changes: [{ key: 'mcp:notes', change: 'changed', label: 'MCP server notes' }],
    })
    const declined = third.host.answerTrust(false)
    expect(declined).toMatchObject({ trusted: false, declined: true })
    expect(third.host.mcp.state().servers[0]?.status).toBe('off')
  }, 60_000)

  it('a fresh workspace without servers is trusted at once, and its record says so', async () => {
    const folder = configFolder()
    const { host, workspace } = await startHost(queueScript({}), {
      trust: { store: new WorkspaceTrustStore(folder) },
    })
    expect(host.trust.view()).toMatchObject({ trusted: true, reason: 'made-here', changes: [] })
    expect(host.mcp.state()).toEqual({ servers: [], problems: [] })
    const file = join(folder, 'workspace-trust.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).workspaces[workspace]).toMatchObject({
      how: 'made-here',
      items: {},
    })
  })
})

describe('the trust store', () => {
  it('a damaged file, or a record that does not add up, trusts nothing; __proto__ is data', () => {
    const folder = configFolder()
    writeFileSync(join(folder, 'workspace-trust.json'), '{"v":1,"workspaces":{"/w":{"x":1}}}')
    const store = new WorkspaceTrustStore(folder)
    expect(store.record('/w')).toBeNull()
    expect(store.record('__proto__')).toBeNull()
    store.remember('/w', { 'host:a': 'a'.repeat(64) }, 'agreed')
    expect(store.record('/w')?.items).toEqual({ 'host:a': 'a'.repeat(64) })
    // A hand edit that adds an item without its fingerprint is refused whole.
    const file = JSON.parse(readFileSync(store.file, 'utf8'))
    file.workspaces['/w'].items['host:evil'] = 'b'.repeat(64)
    writeFileSync(store.file, JSON.stringify(file))
    expect(store.record('/w')).toBeNull()
  })
})

describe('what a workspace grants', () => {
  it('names files the servers run, with their hashes; a link is followed and named', () => {
    const { dir } = tempWorkspace()
    mkdirSync(join(dir, 'tools'))
    writeFileSync(join(dir, 'tools', 'server.mjs'), 'console.log(1)\n')
    symlinkSync(join(dir, 'tools', 'server.mjs'), join(dir, 'linked.mjs'))
    writeMcpJson(dir, {
      direct: { command: 'node', args: ['tools/server.mjs'] },
      shell: { command: 'bash', args: ['-c', 'node linked.mjs --config=tools/server.mjs'] },
      outside: { command: 'node', args: ['/etc/hostname', '../elsewhere.js'] },
    })
    const view = inspectTrust(new TeamPaths(dir), { store: null }, process.env).view()
    expect(
      view.grants.files.map((file) => [file.path, file.target !== null, file.servers]),
    ).toEqual([
      ['linked.mjs', true, ['shell']],
      ['tools/server.mjs', false, ['direct', 'shell']],
    ])
    expect(view.grants.files[1]?.sha256).toMatch(/^[0-9a-f]{64}$/)
    // Never asked before: the .team/ would be made now, so nothing was agreed beyond it.
    expect(view).toMatchObject({ trusted: false, reason: 'not-reviewed' })
  })

  it('marks secrets: references, key-like literals, secret names, queries', () => {
    expect(referencesSecret('Bearer ${ANTHROPIC_API_KEY}')).toBe(true)
    expect(referencesSecret('${GH_TOKEN}')).toBe(true)
    expect(referencesSecret('${DB_PASSWORD:-x}')).toBe(true)
    expect(referencesSecret('${HOME}/x')).toBe(false)
    expect(holdsKeyLike('sk-ant-api03-abcdefgh')).toBe(true)
    expect(holdsKeyLike('ghp_abcdefghijklmnopqrstuvwxyz012345')).toBe(true)
    expect(holdsKeyLike('/tmp/agent-teams-unit-Ab12Cd/tools/server.mjs')).toBe(false)
    expect(holdsKeyLike('3f786850e387550fdab836ed7e6dc881de23001b')).toBe(true)
    const { dir } = tempWorkspace()
    writeMcpJson(dir, {
      api: {
        type: 'http',
        url: 'https://api.example/mcp?token=${ANTHROPIC_API_KEY}&region=eu',
        headers: { 'X-Region': 'eu', 'X-Api-Key': 'plain' },
      },
    })
    const [server] = inspectTrust(
      new TeamPaths(dir),
      { store: null },
      { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-probe-123456' },
    ).view().grants.mcpServers
    expect(server).toMatchObject({
      transport: 'http',
      url: {
        written: 'https://api.example/mcp?token=${ANTHROPIC_API_KEY}&region=eu',
        expanded: `https://api.example/mcp?token=‹ANTHROPIC_API_KEY: 19 characters, sha256 ${createHash('sha256').update('sk-ant-probe-123456').digest('hex').slice(0, 8)}›&region=eu`,
        secret: true,
      },
      headers: [
        { name: 'X-Api-Key', written: 'plain', secret: true },
        { name: 'X-Region', written: 'eu', secret: false },
      ],
    })
  })

  it('labels every kind of grant in words', () => {
    expect(grantLabel('host:127.0.0.1')).toBe('allowed host 127.0.0.1')
    expect(grantLabel('rule:alice:bash:npm test')).toBe(
      'approve-always rule: alice may run bash npm test',
    )
    expect(grantLabel('file:tools/server.mjs')).toBe('server file tools/server.mjs')
    expect(grantLabel('profile:power')).toBe('custom profile power')
  })
})

describe('the CLI trust question (chat, demo, serve)', () => {
  function setUp() {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const configDirectory = configFolder()
    const stderr = new Capture()
    const output = { stdout: new Capture(), stderr }
    return { dir, configDirectory, stderr, output }
  }

  it('asks on a terminal with the whole listing and remembers a yes', async () => {
    const { dir, configDirectory, output } = setUp()
    const questions: string[] = []
    const options = await trustOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async (question) => {
        questions.push(question)
        return 'y'
      },
    })
    expect(questions[0]).toContain(`  notes (stdio, .mcp.json)  [new]`)
    expect(questions[0]).toContain(`command: ${process.execPath}`)
    expect(questions[0]).toContain('[y/N]')
    expect(options.forRun).toBeUndefined()
    const { host } = await startHost(queueScript({}), { workspace: dir, trust: options })
    expect(host.trust.view()).toMatchObject({ trusted: true, reason: 'agreed' })
    // Asked once: the next run finds the answer.
    const again: string[] = []
    await trustOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async (question) => {
        again.push(question)
        return 'n'
      },
    })
    expect(again).toEqual([])
  }, 30_000)

  it('a no keeps it untrusted; no terminal says why; --trust-workspace trusts this run only', async () => {
    const { dir, configDirectory, output, stderr } = setUp()
    const declined = await trustOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async () => 'no',
    })
    expect(stderr.text).toContain('the workspace stays untrusted for this run')
    const noTerminal = await trustOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async () => null,
    })
    expect(stderr.text).toContain('is not trusted, and there is no terminal to ask on')
    expect(stderr.text).toContain('agent-teams trust --yes')
    for (const options of [declined, noTerminal]) {
      const { host } = await startHost(queueScript({}), { workspace: dir, trust: options })
      expect(host.trust.isTrusted()).toBe(false)
      await host.close()
    }
    const flagged = await trustOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: true,
      output,
      ask: async () => {
        throw new Error('the flag must not ask')
      },
    })
    expect(flagged.forRun).toBe(true)
    const run = await startHost(queueScript({}), { workspace: dir, trust: flagged })
    expect(run.host.trust.view()).toMatchObject({ trusted: true, reason: 'for-this-run' })
    await run.host.close()
    // Nothing was remembered by the flag.
    const { host } = await startHost(queueScript({}), {
      workspace: dir,
      trust: { store: new WorkspaceTrustStore(configDirectory) },
    })
    expect(host.trust.isTrusted()).toBe(false)
  }, 30_000)
})
