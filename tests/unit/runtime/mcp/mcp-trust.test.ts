import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { McpTrustStore } from '../../../../src/main/runtime/mcp/trust'
import { queueScript, text } from '../../../../src/offline-model/script'
import { mcpOptionsForRun } from '../../../../src/cli/mcp-trust'
import { startHost } from '../../../helpers/host'
import { stdioEntry, writeMcpJson } from '../../../helpers/mcp'
import { Capture } from '../../../helpers/streams'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const WAIT = { timeout: 20_000, interval: 20 }

describe('trusting a workspace before its MCP servers start', () => {
  it('asks first; the answer starts them, is remembered, and a changed file asks again', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const trustStore = new McpTrustStore(tempWorkspace('agent-teams-config-').dir)
    const script = queueScript({ lead: [text('no tools yet'), text('now with tools')] })
    const first = await startHost(script, { workspace: dir, mcp: { trustStore } })
    expect(first.host.mcp.state().trust).toBe('ask')
    expect(first.host.mcp.state().servers[0]?.status).toBe('off')
    first.host.chat('Hello.')
    await first.host.whenIdle()
    const tools = (agentCall: number) =>
      (first.server.requests.filter((request) => request.agent === 'lead')[agentCall]?.body.tools ??
        []) as { name: string }[]
    expect(tools(0).some((tool) => tool.name.startsWith('mcp__'))).toBe(false)

    first.host.mcp.trustServers(true)
    await waitFor(
      () => first.host.mcp.state().servers[0]?.status === 'running',
      () => JSON.stringify(first.host.mcp.state()),
      WAIT,
    )
    first.host.chat('Again.')
    await first.host.whenIdle()
    expect(tools(1).map((tool) => tool.name)).toContain('mcp__notes__echo')

    // Remembered: the next open starts them without asking.
    const second = await first.restart({ mcp: { trustStore } })
    expect(second.host.mcp.state().trust).toBe('trusted')

    // A changed file is new content: asked again, nothing started.
    writeMcpJson(dir, { notes: stdioEntry({ args: ['--changed'] }) })
    const third = await second.restart({ mcp: { trustStore } })
    expect(third.host.mcp.state().trust).toBe('ask')
    third.host.mcp.declineServers()
    expect(third.host.mcp.state().trust).toBe('declined')
    expect(third.host.mcp.state().servers[0]?.status).toBe('off')
  }, 60_000)

  it('a workspace without servers asks nothing', async () => {
    const { host } = await startHost(queueScript({}), {
      mcp: { trustStore: new McpTrustStore(tempWorkspace().dir) },
    })
    expect(host.mcp.state()).toEqual({ trust: 'none', servers: [], problems: [] })
  })
})

describe('the CLI trust question (chat, demo, serve)', () => {
  function setUp() {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const configDirectory = tempWorkspace('agent-teams-config-').dir
    const stderr = new Capture()
    const output = { stdout: new Capture(), stderr }
    return { dir, configDirectory, stderr, output }
  }

  it('asks on a terminal and remembers a yes', async () => {
    const { dir, configDirectory, output } = setUp()
    const questions: string[] = []
    const options = await mcpOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async (question) => {
        questions.push(question)
        return 'y'
      },
    })
    expect(questions[0]).toContain(`notes: ${process.execPath}`)
    expect(questions[0]).toContain('[y/N]')
    expect(options.trustForRun).toBe(false)
    const { host } = await startHost(queueScript({}), { workspace: dir, mcp: options })
    expect(host.mcp.state().trust).toBe('trusted')
    // Asked once: the next run finds the answer.
    const again: string[] = []
    await mcpOptionsForRun({
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

  it('a no keeps them off; no terminal says why; --trust-workspace trusts this run only', async () => {
    const { dir, configDirectory, output, stderr } = setUp()
    const declined = await mcpOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async () => 'no',
    })
    expect(stderr.text).toContain('the MCP servers stay off for this run')
    const noTerminal = await mcpOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: false,
      output,
      ask: async () => null,
    })
    expect(stderr.text).toContain(
      'are off: they are not trusted yet, and there is no terminal to ask on. Run with --trust-workspace',
    )
    for (const options of [declined, noTerminal]) {
      const { host } = await startHost(queueScript({}), { workspace: dir, mcp: options })
      expect(host.mcp.state().trust).toBe('ask')
      await host.close()
    }
    const flagged = await mcpOptionsForRun({
      workspace: dir,
      configDirectory,
      trustForRun: true,
      output,
      ask: async () => {
        throw new Error('the flag must not ask')
      },
    })
    expect(flagged.trustForRun).toBe(true)
    // Nothing was remembered by the flag.
    const store = new McpTrustStore(configDirectory)
    writeFileSync(join(dir, 'unrelated.txt'), 'x')
    const { host } = await startHost(queueScript({}), {
      workspace: dir,
      mcp: { trustStore: store },
    })
    expect(host.mcp.state().trust).toBe('ask')
  }, 30_000)
})
