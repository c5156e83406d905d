// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from '../../../src/renderer/shell/App'
import type { HostEvent } from '../../../src/shared/contract'
import type { ConnectionStatus } from '../../../src/renderer/store/ui'
import { agentView, fakeApi, rejection, settingsView, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({
  members: [
    agentView('alice', { role: 'coder', status: 'working' }),
    agentView('bob', { role: 'tester' }),
  ],
})

describe('App', () => {
  it('opens on the lead chat of the workspace it was started with', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    expect(screen.getByRole('heading', { level: 1, name: 'Lead' })).toBeInTheDocument()
    expect(screen.getByLabelText('Message the lead')).toBeInTheDocument()
    expect(screen.getByTitle('/home/dana/stats')).toHaveTextContent('stats')
    expect(api.getTranscript).toHaveBeenCalledWith({ name: 'lead', last: 100 })
  })

  it('after a server restart with a new token: says the address is no longer valid, nothing stale stays clickable', async () => {
    const api = fakeApi({ snapshot: team })
    let report: (status: ConnectionStatus) => void = () => {}
    render(
      <App
        api={api}
        onConnectionChange={(listener) => {
          report = listener
          return () => {}
        }}
      />,
    )
    await screen.findByRole('complementary', { name: 'Team' })
    act(() => report('reconnecting'))
    expect(screen.getByText(/Reconnecting…/)).toBeInTheDocument()

    act(() => report('expired'))
    expect(
      screen.getByRole('heading', { level: 1, name: 'This address is no longer valid' }),
    ).toBeInTheDocument()
    expect(screen.getByTestId('expired-address')).toHaveTextContent('agent-teams serve')
    // The stale team is gone: no roster, no composer, no buttons left to click.
    expect(screen.queryByRole('complementary', { name: 'Team' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Message the lead')).not.toBeInTheDocument()
    expect(screen.queryAllByRole('button')).toEqual([])
  })

  it('says so when it cannot start', async () => {
    const api = fakeApi()
    api.getInfo.mockRejectedValueOnce(rejection('internal', 'main is gone'))
    render(<App api={api} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('main is gone')
  })

  it('refuses a reply that does not match the contract', async () => {
    const api = fakeApi()
    api.getInfo.mockResolvedValueOnce({ version: 7 } as never)
    render(<App api={api} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('does not match the contract')
  })

  it('reports events that do not match the contract and applies the rest', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    act(() =>
      api.emit([
        { type: 'no-such-event' } as unknown as HostEvent,
        {
          type: 'agent-status-changed',
          name: 'bob',
          previous: 'idle',
          status: 'working',
          reason: 'activated',
          cause: null,
          error_code: null,
        },
      ]),
    )
    expect(screen.getByRole('alert')).toHaveTextContent('1 event(s) from the app were ignored')
    expect(screen.getByTestId('status-bob')).toHaveTextContent('Working')
    fireEvent.click(screen.getByRole('button', { name: /^Dismiss/ }))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('stops listening to events when it goes away', async () => {
    const api = fakeApi()
    const view = await renderApp(api)
    expect(api.listenerCount()).toBe(1)
    view.unmount()
    expect(api.listenerCount()).toBe(0)
  })

  it('shows a refused key once for the whole team, with Open Settings, until cleared', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    const refused = 'HTTP 401: invalid x-api-key'
    act(() =>
      api.emit([
        { type: 'team-alert', code: 'auth', message: refused },
        ...['lead', 'alice', 'bob'].map((name) => ({
          type: 'agent-status-changed' as const,
          name,
          previous: 'working' as const,
          status: 'error' as const,
          reason: refused,
          cause: null,
          error_code: 'auth',
        })),
        { type: 'team-alert', code: 'auth', message: refused },
      ]),
    )
    expect(screen.getAllByRole('alert')).toHaveLength(1)
    const banner = screen.getByTestId('team-alert')
    expect(banner).toHaveTextContent('The team cannot work: the API key was refused')
    expect(banner).toHaveTextContent(refused)
    for (const name of ['lead', 'alice', 'bob'])
      expect(screen.getByTestId(`roster-item-${name}`)).toHaveTextContent(
        'Stopped by the team alert above',
      )
    expect(screen.getByTestId('roster-item-alice')).not.toHaveTextContent(refused)
    fireEvent.click(within(banner).getByRole('button', { name: 'Open Settings' }))
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument()
    fireEvent.keyDown(window, { key: 'Escape' })

    act(() => api.emit([{ type: 'team-alert-cleared', code: 'auth' }]))
    expect(screen.queryByTestId('team-alert')).not.toBeInTheDocument()
  })

  it('shows the alert of the snapshot after a reload', async () => {
    await renderApp(
      fakeApi({ snapshot: snapshot({ alert: { code: 'auth', message: 'HTTP 403: forbidden' } }) }),
    )
    expect(screen.getByTestId('team-alert')).toHaveTextContent('HTTP 403: forbidden')
    expect(screen.getByRole('button', { name: 'Open Settings' })).toBeInTheDocument()
  })

  it('says "Offline model", not "No API key", for a team on the offline model', async () => {
    const noKey = settingsView({ apiKeySet: false, apiKeySource: 'none' })
    await renderApp(fakeApi({ settings: noKey, offline: true }))
    const chip = screen.getByRole('button', { name: 'Offline model' })
    expect(chip).not.toHaveClass('model-chip-warning')
    expect(screen.queryByText('No API key')).not.toBeInTheDocument()
  })

  it('says "No API key" when there is neither a key nor the offline model', async () => {
    const noKey = settingsView({ apiKeySet: false, apiKeySource: 'none' })
    const api = fakeApi({ settings: noKey })
    await renderApp(api, 'first-run')
    fireEvent.click(screen.getByRole('button', { name: 'Continue to this folder' }))
    expect(screen.getByRole('button', { name: 'No API key' })).toHaveClass('model-chip-warning')
  })

  it('turns the model chip red while the endpoint cannot be reached, and back', async () => {
    const api = fakeApi()
    await renderApp(api)
    const chip = within(screen.getByRole('banner')).getByRole('button', { name: 'claude-test' })
    expect(chip).not.toHaveClass('model-chip-unreachable')
    const waiting = (cause: 'unreachable' | 'retry'): void =>
      act(() =>
        api.emit([
          {
            type: 'agent-status-changed',
            name: 'lead',
            previous: 'working',
            status: 'waiting',
            reason: 'Cannot reach the model endpoint. Retrying in 2.0 s (attempt 2 of 5).',
            cause,
            error_code: null,
          },
        ]),
      )
    waiting('retry')
    expect(chip).not.toHaveClass('model-chip-unreachable')
    waiting('unreachable')
    expect(chip).toHaveClass('model-chip-unreachable')
    expect(chip.title).toMatch(/cannot be reached/)
    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'lead',
          previous: 'waiting',
          status: 'working',
          reason: 'working again',
          cause: null,
          error_code: null,
        },
      ]),
    )
    expect(chip).not.toHaveClass('model-chip-unreachable')
  })

  describe('keyboard shortcuts', () => {
    it('Ctrl+N spawns, Ctrl+, settings, F1 help, Esc closes', async () => {
      await renderApp(fakeApi({ snapshot: team }))
      fireEvent.keyDown(window, { key: 'n', ctrlKey: true })
      expect(screen.getByRole('dialog', { name: 'Spawn a teammate' })).toBeInTheDocument()
      fireEvent.keyDown(window, { key: 'Escape' })
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

      fireEvent.keyDown(window, { key: ',', ctrlKey: true })
      expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument()
      fireEvent.keyDown(window, { key: 'Escape' })

      fireEvent.keyDown(window, { key: 'F1' })
      expect(screen.getByRole('dialog', { name: 'Help' })).toHaveTextContent('Keyboard shortcuts')
    })

    it('Ctrl+2 opens the first teammate, Ctrl+I its inbox, Ctrl+Shift+A the activity panes', async () => {
      await renderApp(fakeApi({ snapshot: team }))
      fireEvent.keyDown(window, { key: '2', ctrlKey: true })
      expect(screen.getByRole('heading', { level: 1, name: 'alice' })).toBeInTheDocument()

      fireEvent.keyDown(window, { key: 'i', ctrlKey: true })
      expect(screen.getByRole('tab', { name: 'Inbox' })).toHaveAttribute('aria-selected', 'true')
      expect(await screen.findByLabelText('Message alice')).toBeInTheDocument()

      fireEvent.keyDown(window, { key: 'A', ctrlKey: true, shiftKey: true })
      expect(screen.getByTestId('activity-pane-lead')).toBeInTheDocument()
      expect(screen.getByTestId('activity-pane-alice')).toBeInTheDocument()
      expect(screen.getByTestId('activity-pane-bob')).toBeInTheDocument()
    })

    it('Ctrl+K puts the cursor in the message box, once', async () => {
      await renderApp(fakeApi({ snapshot: team }))
      fireEvent.keyDown(window, { key: 'k', ctrlKey: true })
      expect(screen.getByLabelText('Message the lead')).toHaveFocus()

      fireEvent.click(screen.getByRole('tab', { name: 'Inbox' }))
      expect(await screen.findByLabelText('Message lead')).not.toHaveFocus()
    })

    it('? opens help, but not while typing', async () => {
      await renderApp(fakeApi())
      fireEvent.keyDown(screen.getByLabelText('Message the lead'), { key: '?' })
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
      fireEvent.keyDown(document.body, { key: '?' })
      expect(screen.getByRole('dialog', { name: 'Help' })).toBeInTheDocument()
    })
  })

  describe('activity panes', () => {
    it('show each agent’s status, current tool call and streaming text', async () => {
      const api = fakeApi({ snapshot: team })
      await renderApp(api)
      fireEvent.click(screen.getByRole('tab', { name: 'Activity' }))

      act(() =>
        api.emit([
          { type: 'text-delta', agent: 'alice', text: 'Writing the module' },
          { type: 'tool-call-started', agent: 'alice', id: 't1', name: 'write_file' },
          {
            type: 'tool-input-delta',
            agent: 'alice',
            id: 't1',
            partial_json: '{"path": "demo/stats.mjs", "content": "exp',
          },
        ]),
      )

      const pane = screen.getByTestId('activity-pane-alice')
      expect(pane).toHaveTextContent('Working')
      expect(pane).toHaveTextContent('write_file')
      expect(pane).toHaveTextContent('demo/stats.mjs')
      // The streaming text is written on the next animation frame.
      await waitFor(() => expect(pane).toHaveTextContent('Writing the module'))

      act(() => api.emit([{ type: 'text-delta', agent: 'alice', text: ', now the tests.' }]))
      await waitFor(() => expect(pane).toHaveTextContent('Writing the module, now the tests.'))
      expect(screen.getByTestId('activity-pane-bob')).toHaveTextContent('Nothing streamed yet.')
    })
  })
})
