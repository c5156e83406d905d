// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { McpServerView, McpState } from '../../../src/shared/mcp'
import { fakeApi, snapshot } from './fake-api'
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
  return fakeApi({ snapshot: snapshot({ mcp: state }) })
}

describe('MCP servers in the window', () => {
  it('asks to trust the folder’s servers before anything else, and sends the answer', async () => {
    const api = withServers({
      trust: 'ask',
      servers: [server({ status: 'off', tools: [] })],
      problems: [],
    })
    await renderApp(api)
    const dialog = await screen.findByRole('dialog', { name: 'Trust this folder’s MCP servers?' })
    expect(within(dialog).getByText('node notes.mjs')).toBeInTheDocument()
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Trust and start' }))
    })
    expect(api.trustMcpServers).toHaveBeenCalledWith({ trust: true })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('Not now declines: the servers stay off and the dialog closes', async () => {
    const api = withServers({
      trust: 'ask',
      servers: [server({ status: 'off', tools: [] })],
      problems: [],
    })
    await renderApp(api)
    const dialog = await screen.findByRole('dialog', { name: 'Trust this folder’s MCP servers?' })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }))
    })
    expect(api.trustMcpServers).toHaveBeenCalledWith({ trust: false })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('the MCP button shows each server’s state, tools, failure and stderr; follows events', async () => {
    const api = withServers({
      trust: 'trusted',
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
            trust: 'trusted',
            servers: [server({ status: 'restarting', detail: 'it stopped' })],
            problems: [],
          },
        },
      ])
    })
    expect(within(dialog).getByText('Restarting')).toBeInTheDocument()
  })

  it('adds a stdio server from a command line, and an HTTP one from an address', async () => {
    const api = withServers({ trust: 'trusted', servers: [], problems: [] })
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
      trust: 'trusted',
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
