import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { startHost } from '../../../helpers/host'
import { startHttpMcpServer, stdioEntry, writeMcpJson } from '../../../helpers/mcp'
import { findProcess } from '../../../helpers/proc'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const WAIT = { timeout: 20_000, interval: 20 }

/** The tool names offered in the requests an agent made. */
function offeredTools(
  requests: { agent: string | null; body: { tools?: unknown[] } }[],
  agent: string,
): string[] {
  const request = requests.filter((item) => item.agent === agent).at(-1)
  return (request?.body.tools ?? []).map((tool) => String((tool as { name: unknown }).name))
}

function trustedOptions(extra: Record<string, unknown> = {}) {
  return {
    trust: { store: null, forRun: true },
    mcp: {
      policy: { callTimeoutMs: 5_000, restartDelaysMs: [50, 50], connectTimeoutMs: 15_000 },
      ...extra,
    },
  }
}

describe('MCP tools through the real SDKs', () => {
  it('offers stdio and HTTP tools with their schemas; the lead calls them end to end', async () => {
    const { dir } = tempWorkspace()
    const weather = await startHttpMcpServer('sky-token-123')
    writeMcpJson(dir, {
      notes: stdioEntry(),
      weather: {
        type: 'http',
        url: weather.url,
        headers: { Authorization: 'Bearer ${WEATHER_TOKEN}' },
      },
    })
    const script = queueScript({
      lead: [
        toolCall('mcp__notes__echo', { text: 'hello' }),
        toolCall('mcp__weather__forecast', { city: 'Lyon' }),
        text('All done.'),
      ],
    })
    const { host, server, records } = await startHost(script, {
      workspace: dir,
      ...trustedOptions({ env: { ...process.env, WEATHER_TOKEN: 'sky-token-123' } }),
    })
    host.chat('Use the tools.')
    await host.whenIdle()
    script.assertConsumed()

    const first = server.requests.find((request) => request.agent === 'lead')
    const tools = (first?.body.tools ?? []) as { name: string; input_schema: unknown }[]
    const echo = tools.find((tool) => tool.name === 'mcp__notes__echo')
    expect(echo?.input_schema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    })
    expect(tools.map((tool) => tool.name)).toContain('mcp__weather__forecast')

    const results = records('lead', 'tool-result')
    expect(results.map((result) => [result.name, result.content, result.is_error])).toEqual([
      ['mcp__notes__echo', 'echo: hello', false],
      ['mcp__weather__forecast', 'Lyon: sunny, 21 °C', false],
    ])
    expect(weather.authorizations).toContain('Bearer sky-token-123')
    const state = host.mcp.state()
    expect(host.trust.isTrusted()).toBe(true)
    expect(state.servers.map((item) => [item.name, item.status])).toEqual([
      ['notes', 'running'],
      ['weather', 'running'],
    ])
  }, 60_000)

  it('returns error results as is_error, and images as image blocks', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const script = queueScript({
      lead: [toolCall('mcp__notes__fail', {}), toolCall('mcp__notes__picture', {}), text('ok')],
    })
    const { host, server, records } = await startHost(script, {
      workspace: dir,
      ...trustedOptions(),
    })
    host.chat('Try them.')
    await host.whenIdle()
    const [failed, picture] = records('lead', 'tool-result')
    expect(failed).toMatchObject({ content: 'the notes database is locked', is_error: true })
    expect(picture).toMatchObject({ content: 'a pixel', is_error: false })
    expect(picture?.images?.[0]?.media_type).toBe('image/png')
    // The image goes back to the model inside the tool result.
    const last = server.requests.filter((request) => request.agent === 'lead').at(-1)
    expect(JSON.stringify(last?.body.messages)).toContain('"type":"image"')
  }, 60_000)

  it('a call that never answers times out', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const script = queueScript({ lead: [toolCall('mcp__notes__hang', {}), text('gave up')] })
    const { host, records } = await startHost(script, {
      workspace: dir,
      ...trustedOptions({ policy: { callTimeoutMs: 300, connectTimeoutMs: 15_000 } }),
    })
    host.chat('Wait for it.')
    await host.whenIdle()
    expect(records('lead', 'tool-result')[0]).toMatchObject({
      name: 'mcp__notes__hang',
      is_error: true,
      content: expect.stringContaining('did not answer in time'),
    })
  }, 60_000)

  it('the stop button ends a call that never answers', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, { notes: stdioEntry() })
    const script = queueScript({ lead: [toolCall('mcp__notes__hang', {})] })
    const { host, records, events } = await startHost(script, {
      workspace: dir,
      // Out of reach: only the stop can end the call.
      ...trustedOptions({ policy: { callTimeoutMs: 600_000, connectTimeoutMs: 15_000 } }),
    })
    host.chat('Wait for it.')
    await waitFor(
      () => events.some((event) => event.type === 'tool-call-started'),
      () => 'the hang call',
      WAIT,
    )
    host.stop('lead')
    await host.whenIdle()
    const last = records('lead', 'tool-result').at(-1)
    expect(last?.is_error).toBe(true)
    expect(last?.content).toMatch(/stopped/)
  }, 60_000)

  it('restarts a server that crashed, and gives up on one that never starts', async () => {
    const { dir } = tempWorkspace()
    writeMcpJson(dir, {
      notes: stdioEntry(),
      broken: stdioEntry({ args: ['--crash-on-start'] }),
      missing: { command: '/nonexistent/mcp-server' },
    })
    const script = queueScript({
      lead: [toolCall('mcp__notes__crash', {}), text('crashed')],
    })
    const { host, records } = await startHost(script, { workspace: dir, ...trustedOptions() })
    host.chat('Crash it.')
    await host.whenIdle()
    expect(records('lead', 'tool-result')[0]?.is_error).toBe(true)
    const notes = () => host.mcp.state().servers.find((server) => server.name === 'notes')
    await waitFor(
      () => notes()?.status === 'running' && (notes()?.restarts ?? 0) >= 1,
      () => `notes running again (now ${JSON.stringify(notes())})`,
      WAIT,
    )
    const broken = () => host.mcp.state().servers.find((server) => server.name === 'broken')
    await waitFor(
      () => broken()?.status === 'failed',
      () => JSON.stringify(broken()),
      WAIT,
    )
    expect(broken()?.detail).toContain('gave up after 3 attempts')
    expect(broken()?.stderrTail).toContain('notes-server: cannot open the notes database')
    const missing = () => host.mcp.state().servers.find((server) => server.name === 'missing')
    await waitFor(
      () => missing()?.status === 'failed',
      () => JSON.stringify(missing()),
      WAIT,
    )
    expect(missing()?.detail).toMatch(/^its command was not found.*; gave up/)
  }, 60_000)

  it('gives each agent the servers chosen at spawn, and refuses an unknown one', async () => {
    const { dir } = tempWorkspace()
    const weather = await startHttpMcpServer()
    writeMcpJson(dir, { notes: stdioEntry(), weather: { type: 'http', url: weather.url } })
    const script = queueScript({ alice: [text('hi')], bob: [text('hi')] })
    const { host, server } = await startHost(script, { workspace: dir, ...trustedOptions() })
    await expect(
      host.spawn({ name: 'carol', role: 'x', prompt: 'p', mcpServers: ['nope'] }),
    ).rejects.toThrow(/No MCP server "nope" in this workspace; it has notes, weather/)
    await host.spawn({ name: 'alice', role: 'forecaster', prompt: 'go', mcpServers: ['weather'] })
    await host.spawn({ name: 'bob', role: 'writer', prompt: 'go' })
    await host.whenIdle()
    const alice = offeredTools(server.requests, 'alice').filter((name) => name.startsWith('mcp__'))
    const bob = offeredTools(server.requests, 'bob').filter((name) => name.startsWith('mcp__'))
    expect(alice).toEqual(['mcp__weather__forecast'])
    expect(bob).toContain('mcp__notes__echo')
    expect(bob).toContain('mcp__weather__forecast')
    const roster = JSON.parse(readFileSync(join(dir, '.team/config.json'), 'utf8')) as {
      members: { name: string; mcp_servers?: string[] }[]
    }
    expect(roster.members.find((member) => member.name === 'alice')?.mcp_servers).toEqual([
      'weather',
    ])
    expect(roster.members.find((member) => member.name === 'bob')?.mcp_servers).toBeUndefined()
  }, 60_000)

  it('keeps secrets out of transcripts, events and the state; no process outlives the team', async () => {
    const { dir } = tempWorkspace()
    const secret = `s3cret-${randomUUID()}`
    const marker = `--marker=${randomUUID()}`
    writeMcpJson(dir, {
      notes: stdioEntry({ args: [marker], env: { NOTES_TOKEN: '${TEST_NOTES_SECRET}' } }),
    })
    const script = queueScript({
      lead: [toolCall('mcp__notes__token', {}), toolCall('mcp__notes__leak', {}), text('ok')],
    })
    const { host, events, records } = await startHost(script, {
      workspace: dir,
      ...trustedOptions({ env: { ...process.env, TEST_NOTES_SECRET: secret } }),
    })
    host.chat('Check the token.')
    await host.whenIdle()
    expect(records('lead', 'tool-result')[0]?.content).toBe('has a token')
    expect(records('lead', 'tool-result')[1]?.content).toBe('my token is ***')
    const notes = host.mcp.state().servers[0]
    await waitFor(
      () =>
        host.mcp.state().servers[0]?.stderrTail.includes('notes-server: using token ***') === true,
      () => `the server's masked line (its stderr: ${JSON.stringify(host.mcp.state().servers[0])})`,
    )
    expect(JSON.stringify(notes)).not.toContain(secret)
    expect(JSON.stringify(events)).not.toContain(secret)
    for (const file of readdirSync(join(dir, '.team/transcripts')))
      expect(readFileSync(join(dir, '.team/transcripts', file), 'utf8')).not.toContain(secret)

    expect(findProcess(marker)).not.toBeNull()
    await host.close()
    await waitFor(
      () => findProcess(marker) === null,
      () => 'the server process to end',
      WAIT,
    )
  }, 60_000)
})
