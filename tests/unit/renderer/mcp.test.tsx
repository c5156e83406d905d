// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { McpServerView, McpState } from '../../../src/shared/mcp'
import type { TrustView } from '../../../src/shared/trust'
import { fakeApi, snapshot, trustView, WORKSPACE } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

function server(change: Partial<McpServerView> = {}): McpServerView {
  return {
    name: 'notes',
    source: 'workspace',
    transport: 'stdio',
    target: 'node notes.mjs',
    status: 'running',
    detail: null,
    tools: ['echo', 'search'],
    stderrTail: [],
    restarts: 0,
    ...change,
  }
}

function withServers(state: McpState) {
  return fakeApi({ snapshot: snapshot({ mcp: state, trust: trustView() }) })
}

describe('the trust question in the window', () => {
  function hostile(): TrustView {
    return trustView({
      trusted: false,
      reason: 'no-record',
      grants: {
        mcpServers: [
          {
            key: 'mcp:notes',
            name: 'notes',
            source: 'workspace',
            transport: 'stdio',
            command: { written: 'node', expanded: 'node', secret: false },
            args: [{ written: 'tools/server.mjs', expanded: 'tools/server.mjs', secret: false }],
            env: [
              {
                name: 'NOTES_KEY',
                written: '${ANTHROPIC_API_KEY}',
                expanded: 'sk-ant-visible-0123456789',
                secret: true,
              },
            ],
            cwd: WORKSPACE,
          },
          {
            key: 'mcp:weather',
            name: 'weather',
            source: 'team',
            transport: 'http',
            url: {
              written: `https://weather.example/mcp?token=\${ANTHROPIC_API_KEY}&city=${'lyon'.repeat(40)}`,
              expanded: 'https://weather.example/mcp?token=sk-ant-visible-0123456789',
              secret: true,
            },
            headers: [{ name: 'X-Region', written: 'eu', expanded: 'eu', secret: false }],
          },
        ],
        files: [
          {
            key: 'file:tools/server.mjs',
            path: 'tools/server.mjs',
            target: null,
            sha256: 'a'.repeat(64),
            bytes: 120,
            servers: ['notes'],
          },
        ],
        allowedHosts: [{ key: 'host:127.0.0.1', host: '127.0.0.1' }],
        approveAlways: [{ key: 'rule:alice:bash:rm', agent: 'alice', tool: 'bash', pattern: 'rm' }],
        profiles: [
          {
            key: 'profile:power',
            name: 'power',
            description: 'everything',
            tools: ['bash', 'write_file'],
            approval: 'auto',
            mcp: true,
          },
        ],
      },
      sandbox: { available: false, reason: 'bwrap is not installed' },
    })
  }

  it('asks before anything else, shows every grant whole with its marks, and sends yes', async () => {
    const view = hostile()
    const api = fakeApi({ snapshot: snapshot({ trust: view }) })
    await renderApp(api)
    const dialog = await screen.findByRole('dialog', { name: 'Trust this workspace?' })
    expect(dialog).toHaveTextContent('it may be a cloned repository')
    // Nothing is cut: the long URL, the expanded key and the whole hash are there.
    const [, weather] = view.grants.mcpServers
    expect(
      within(dialog).getByText(weather?.transport === 'http' ? weather.url.written : ''),
    ).toBeInTheDocument()
    expect(within(dialog).getAllByText('sk-ant-visible-0123456789').length).toBeGreaterThan(0)
    expect(within(dialog).getByText('a'.repeat(64))).toBeInTheDocument()
    expect(within(dialog).getAllByText('secret')).toHaveLength(2)
    for (const text of ['127.0.0.1', 'rm', 'power', 'tools/server.mjs'])
      expect(within(dialog).getAllByText(text).length).toBeGreaterThan(0)
    expect(dialog).toHaveTextContent('stdio servers will run with your full rights')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Trust this workspace' }))
    })
    expect(api.trustWorkspace).toHaveBeenCalledWith({ trust: true })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('Not now declines: the dialog closes, a banner stays and opens it again', async () => {
    const api = fakeApi({ snapshot: snapshot({ trust: hostile() }) })
    await renderApp(api)
    const dialog = await screen.findByRole('dialog', { name: 'Trust this workspace?' })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }))
    })
    expect(api.trustWorkspace).toHaveBeenCalledWith({ trust: false })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByText('This workspace is not trusted.')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Review…' }))
    expect(await screen.findByRole('dialog', { name: 'Trust this workspace?' })).toBeInTheDocument()
  })

  it('marks what changed since the person agreed, and lists what is gone', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        trust: trustView({
          trusted: false,
          reason: 'changed',
          grants: {
            ...hostile().grants,
            mcpServers: [],
            files: [],
            approveAlways: [],
            profiles: [],
          },
          changes: [
            { key: 'host:127.0.0.1', change: 'new', label: 'allowed host 127.0.0.1' },
            { key: 'host:old.example', change: 'removed', label: 'allowed host old.example' },
          ],
        }),
      }),
    })
    await renderApp(api)
    const dialog = await screen.findByRole('dialog', { name: 'Trust this workspace?' })
    expect(dialog).toHaveTextContent('changed since you trusted it')
    expect(within(dialog).getByText('new')).toBeInTheDocument()
    expect(within(dialog).getByText('allowed host old.example')).toBeInTheDocument()
  })
})

describe('MCP servers in the window', () => {
  it('the MCP button shows each server’s state, tools, failure and stderr; follows events', async () => {
    const api = withServers({
      servers: [
        server(),
        server({
          name: 'tracker',
          source: 'team',
          status: 'failed',
          tools: [],
          detail: 'it exited before it answered; gave up after 6 attempts.',
          stderrTail: ['tracker: bad token ***'],
          restarts: 5,
        }),
      ],
      problems: ['.team/mcp.json has more than 100 servers; the rest are ignored.'],
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'MCP 1/2' }))
    const dialog = await screen.findByRole('dialog', { name: 'MCP servers' })
    expect(within(dialog).getByText('Tools: echo, search')).toBeInTheDocument()
    expect(within(dialog).getByText(/gave up after 6 attempts/)).toBeInTheDocument()
    expect(within(dialog).getByLabelText('tracker stderr')).toHaveTextContent(
      'tracker: bad token ***',
    )
    expect(within(dialog).getByText(/more than 100 servers/)).toBeInTheDocument()
    // Only a server added here can be removed here.
    expect(within(dialog).getAllByRole('button', { name: 'Remove' })).toHaveLength(1)
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    })
    expect(api.removeMcpServer).toHaveBeenCalledWith({ name: 'tracker' })

    await act(async () => {
      api.emit([
        {
          type: 'mcp-changed',
          state: {
            servers: [server({ status: 'restarting', detail: 'it stopped' })],
            problems: [],
          },
        },
      ])
    })
    expect(within(dialog).getByText('Restarting')).toBeInTheDocument()
  })

  it('adds a stdio server from a command line, and an HTTP one from an address', async () => {
    const api = withServers({ servers: [], problems: [] })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'MCP' }))
    const dialog = await screen.findByRole('dialog', { name: 'MCP servers' })
    const add = async (name: string, target: string) => {
      fireEvent.change(within(dialog).getByLabelText('Add a server: name'), {
        target: { value: name },
      })
      fireEvent.change(within(dialog).getByLabelText(/Command and arguments/), {
        target: { value: target },
      })
      await act(async () => {
        fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
      })
    }
    await add('files', 'npx -y server-files .')
    await add('weather', 'http://127.0.0.1:8080/mcp')
    expect(api.addMcpServer).toHaveBeenNthCalledWith(1, {
      name: 'files',
      server: { type: 'stdio', command: 'npx', args: ['-y', 'server-files', '.'] },
    })
    expect(api.addMcpServer).toHaveBeenNthCalledWith(2, {
      name: 'weather',
      server: { type: 'http', url: 'http://127.0.0.1:8080/mcp' },
    })
  })

  it('the spawn dialog offers every server, ticked; unticking one sends the rest', async () => {
    const api = withServers({
      servers: [server(), server({ name: 'tracker' })],
      problems: [],
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
    const dialog = await screen.findByRole('dialog', { name: 'Spawn a teammate' })
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'alice' } })
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'coder' } })
    fireEvent.change(within(dialog).getByLabelText('First prompt'), { target: { value: 'go' } })
    expect(within(dialog).getByLabelText('notes')).toBeChecked()
    fireEvent.click(within(dialog).getByLabelText('tracker'))
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Spawn' }))
    })
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'alice',
      role: 'coder',
      prompt: 'go',
      mcpServers: ['notes'],
    })
  })
})
