// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({
  lead: agentView('lead', {
    status: 'working',
    running: true,
    usage: { input_tokens: 1200, output_tokens: 300 },
  }),
  members: [
    agentView('alice', { role: 'coder', status: 'idle', pending: 3 }),
    agentView('bob', { role: 'tester', status: 'error', statusReason: 'HTTP 529: overloaded' }),
    agentView('carol', { role: 'reviewer', status: 'shutdown' }),
    agentView('dave', {
      role: 'docs',
      status: 'waiting',
      statusReason: 'waiting for plan approval',
    }),
  ],
})

describe('the roster', () => {
  it('shows every member with role, a status in words, unread count and tokens', async () => {
    await renderApp(fakeApi({ snapshot: team }))

    expect(screen.getByTestId('status-lead')).toHaveTextContent('Working')
    expect(screen.getByTestId('status-alice')).toHaveTextContent('Idle')
    expect(screen.getByTestId('status-bob')).toHaveTextContent('Error')
    expect(screen.getByTestId('status-carol')).toHaveTextContent('Shut down')
    expect(screen.getByTestId('status-dave')).toHaveTextContent('Waiting')
    expect(screen.getByTestId('status-lead')).toHaveClass('status-working')

    const alice = screen.getByTestId('roster-item-alice')
    expect(alice).toHaveTextContent('coder')
    expect(within(alice).getByTestId('unread-alice')).toHaveTextContent('3')
    expect(screen.queryByTestId('unread-bob')).not.toBeInTheDocument()
    expect(screen.getByTestId('roster-item-lead')).toHaveTextContent('1.5k tokens')

    expect(screen.getByTestId('roster-item-bob')).toHaveTextContent('HTTP 529: overloaded')
    expect(screen.getByTestId('roster-item-dave')).toHaveTextContent('waiting for plan approval')
    expect(screen.getByTestId('roster-item-carol')).toHaveClass('roster-shutdown')
  })

  it('follows status, unread and usage events live', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)

    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'alice',
          previous: 'idle',
          status: 'working',
          reason: 'activated',
        },
        {
          type: 'message-sent',
          message: {
            id: 'x',
            type: 'message',
            from: 'lead',
            to: 'alice',
            content: 'go',
            timestamp: 1,
            extra: {},
          },
        },
        {
          type: 'usage-reported',
          agent: 'alice',
          usage: { input_tokens: 1, output_tokens: 1 },
          total: { input_tokens: 40_000, output_tokens: 2_000 },
        },
      ]),
    )

    expect(screen.getByTestId('status-alice')).toHaveTextContent('Working')
    expect(screen.getByTestId('unread-alice')).toHaveTextContent('4')
    expect(screen.getByTestId('roster-item-alice')).toHaveTextContent('42k tokens')

    act(() => api.emit([{ type: 'message-delivered', agent: 'alice', ids: ['a', 'b', 'c', 'x'] }]))
    expect(screen.queryByTestId('unread-alice')).not.toBeInTheDocument()
  })

  it('offers the actions each status allows', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    const actions = (name: string) =>
      within(screen.getByTestId(`roster-item-${name}`))
        .getAllByRole('button')
        .map((button) => button.textContent)
        .slice(1)

    expect(actions('lead')).toEqual(['Message', 'Stop'])
    expect(actions('alice')).toEqual(['Message', 'Shut down', 'Re-spawn'])
    expect(actions('carol')).toEqual(['Message', 'Re-spawn'])
  })

  it('asks a teammate to shut down with a shutdown_request, and shows a failure', async () => {
    const api = fakeApi({ snapshot: team })
    api.sendMessage.mockRejectedValueOnce(
      rejection('unknown-recipient', '"alice" is not on the roster.'),
    )
    await renderApp(api)

    await act(async () => {
      fireEvent.click(
        within(screen.getByTestId('roster-item-alice')).getByRole('button', { name: 'Shut down' }),
      )
    })

    expect(api.sendMessage).toHaveBeenCalledWith(
      expect.objectContaining({ to: 'alice', type: 'shutdown_request' }),
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Could not ask alice to shut down')
    expect(screen.getByRole('alert')).toHaveTextContent('"alice" is not on the roster.')
  })

  it('adds a spawned teammate when the roster changes', async () => {
    const api = fakeApi()
    await renderApp(api)
    act(() =>
      api.emit([
        {
          type: 'roster-changed',
          team_name: 'stats',
          members: [{ name: 'erin', role: 'designer', status: 'working' }],
        },
      ]),
    )
    expect(screen.getByTestId('roster-item-erin')).toHaveTextContent('designer')
    expect(screen.getByTestId('status-erin')).toHaveTextContent('Working')
  })

  it('shows a broken roster file with its location and resets it', async () => {
    const api = fakeApi()
    await renderApp(api)
    act(() =>
      api.emit([
        {
          type: 'roster-invalid',
          message: 'Unexpected token } in JSON',
          file: '/w/.team/config.json',
          line: 4,
          column: 12,
        },
      ]),
    )
    expect(screen.getByText('/w/.team/config.json:4:12')).toBeInTheDocument()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Reset roster' }))
    })
    expect(api.resetRoster).toHaveBeenCalled()
    expect(screen.queryByText('/w/.team/config.json:4:12')).not.toBeInTheDocument()
  })
})
