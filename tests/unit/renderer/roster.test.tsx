// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, planRequest, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

/** Shut down… opens a confirmation; this confirms it. */
async function confirmShutdown(item: HTMLElement, name: string): Promise<void> {
  await act(async () => {
    fireEvent.click(within(item).getByRole('button', { name: 'Shut down…' }))
  })
  const dialog = screen.getByRole('dialog', { name: `Shut down ${name}?` })
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: `Shut down ${name}` }))
  })
}

const team = snapshot({
  lead: agentView('lead', {
    status: 'working',
    running: true,
    usage: { input_tokens: 1200, output_tokens: 300 },
    // No price for it: the cost is unknown, never "$0".
    usageByModel: [{ model: 'local-llama', usage: { input_tokens: 1200, output_tokens: 300 } }],
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
    const lead = screen.getByTestId('roster-item-lead')
    expect(lead).toHaveTextContent('1.5k · —')
    expect(within(lead).getByTitle(/no price is known for local-llama/)).toBeVisible()

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
          cause: null,
          error_code: null,
        },
        { type: 'inbox-changed', name: 'alice', change: 'appended', pending: 4 },
        {
          type: 'usage-reported',
          agent: 'alice',
          model: 'claude-sonnet-4-5',
          usage: { input_tokens: 40_000, output_tokens: 2_000 },
          total: { input_tokens: 40_000, output_tokens: 2_000 },
        },
      ]),
    )

    expect(screen.getByTestId('status-alice')).toHaveTextContent('Working')
    expect(screen.getByTestId('unread-alice')).toHaveTextContent('4')
    // Sonnet 4.5 at $3 in, $15 out a million: 0.12 + 0.03.
    expect(screen.getByTestId('roster-item-alice')).toHaveTextContent('42k · $0.15')

    act(() =>
      api.emit([
        { type: 'message-delivered', agent: 'alice', ids: ['a', 'b', 'c', 'x'] },
        { type: 'inbox-changed', name: 'alice', change: 'consumed', pending: 0 },
      ]),
    )
    expect(screen.queryByTestId('unread-alice')).not.toBeInTheDocument()
    // The counts came with the events: no snapshot was read for them (the boot's one only).
    expect(api.getSnapshot).toHaveBeenCalledTimes(1)
  })

  it('shows tokens and cost in the roster, the cached share and the cost in its title', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    // 12,300 tokens in all, 10,000 of them read from the cache: 81 %.
    const usage = {
      input_tokens: 1_500,
      cache_creation_input_tokens: 600,
      cache_read_input_tokens: 10_000,
      output_tokens: 200,
    }
    act(() =>
      api.emit([
        { type: 'usage-reported', agent: 'alice', model: 'claude-opus-4-5', usage, total: usage },
      ]),
    )
    const alice = screen.getByTestId('roster-item-alice')
    // Opus 4.5: 1,500 × $5 + 600 × $6.25 + 10,000 × $0.50 + 200 × $25 a million = $0.02125.
    expect(alice).toHaveTextContent('12k · $0.02')
    expect(alice).not.toHaveTextContent('cached')
    expect(within(alice).getByTitle(/Cost: \$0\.0213/)).toBeVisible()
    expect(
      within(alice).getByTitle(/10,000 read from the cache and 600 written to it/),
    ).toBeVisible()
  })

  it('offers the actions each status allows', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        ...team,
        members: [
          ...team.members,
          agentView('erin', { status: 'stalled', statusReason: 'no stream event for 90 s' }),
          agentView('fay', {
            status: 'waiting',
            statusReason: "the agent's token budget is used up (5200 of 5000)",
            statusCause: 'budget',
          }),
        ],
      }),
    })
    await renderApp(api)
    const actions = (name: string) =>
      within(screen.getByTestId(`roster-item-${name}`))
        .getAllByRole('button')
        .map((button) => button.textContent)
        .slice(1)

    // Stop keeps its place (disabled where nothing runs): see the double-click test below.
    expect(actions('lead')).toEqual(['Message', 'Stop', 'Model…', 'Profile…'])
    expect(actions('alice')).toEqual([
      'Message',
      'Stop',
      'Shut down…',
      'Model…',
      'Profile…',
      'Re-spawn',
      'Remove…',
    ])
    expect(actions('bob')).toEqual([
      'Message',
      'Stop',
      'Resume',
      'Shut down…',
      'Model…',
      'Profile…',
      'Re-spawn',
      'Remove…',
    ])
    expect(actions('carol')).toEqual([
      'Message',
      'Stop',
      'Model…',
      'Profile…',
      'Re-spawn',
      'Remove…',
    ])
    expect(actions('dave')).toEqual([
      'Message',
      'Stop',
      'Resume',
      'Shut down…',
      'Model…',
      'Profile…',
      'Remove…',
    ])
    expect(actions('erin')).toEqual([
      'Message',
      'Stop',
      'Retry',
      'Shut down…',
      'Model…',
      'Profile…',
      'Remove…',
    ])
    // A budget pause lifts only with a raised budget: that is what it offers, not Resume.
    expect(actions('fay')).toEqual([
      'Set budget…',
      'Message',
      'Stop',
      'Shut down…',
      'Model…',
      'Profile…',
      'Remove…',
    ])
    const stop = (name: string) =>
      within(screen.getByTestId(`roster-item-${name}`)).getByRole('button', { name: 'Stop' })
    expect(stop('alice')).toBeDisabled()
    expect(stop('carol')).toBeDisabled()
    expect(stop('dave')).toBeEnabled()
  })

  it('a second click where Stop was never shuts the teammate down', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        ...team,
        members: [agentView('frank', { role: 'coder', status: 'working', running: true })],
      }),
    })
    await renderApp(api)
    const buttons = () =>
      within(screen.getByTestId('roster-item-frank')).getAllByRole('button').slice(1)
    const index = buttons().findIndex((button) => button.textContent === 'Stop')
    await act(async () => {
      fireEvent.click(buttons()[index] as HTMLElement)
    })
    expect(api.stopAgent).toHaveBeenCalledWith({ name: 'frank' })
    // The agent stops between the two clicks of a double click.
    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'frank',
          previous: 'working',
          status: 'idle',
          reason: 'stopped',
          cause: null,
          error_code: null,
        },
      ]),
    )
    await act(async () => {
      fireEvent.click(buttons()[index] as HTMLElement)
    })
    expect(api.requestShutdown).not.toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    // Shut down itself asks first, and Cancel sends nothing.
    await act(async () => {
      fireEvent.click(
        within(screen.getByTestId('roster-item-frank')).getByRole('button', {
          name: 'Shut down…',
        }),
      )
    })
    const dialog = screen.getByRole('dialog', { name: 'Shut down frank?' })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(api.requestShutdown).not.toHaveBeenCalled()
  })

  it('Resume and Retry call resumeAgent for that agent', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        ...team,
        members: [...team.members, agentView('erin', { status: 'stalled' })],
      }),
    })
    await renderApp(api)
    await act(async () => {
      fireEvent.click(
        within(screen.getByTestId('roster-item-bob')).getByRole('button', { name: 'Resume' }),
      )
    })
    expect(api.resumeAgent).toHaveBeenCalledWith({ name: 'bob' })
    await act(async () => {
      fireEvent.click(
        within(screen.getByTestId('roster-item-erin')).getByRole('button', { name: 'Retry' }),
      )
    })
    expect(api.resumeAgent).toHaveBeenLastCalledWith({ name: 'erin' })
    expect(api.resumeAgent).toHaveBeenCalledTimes(2)
  })

  it('Shut down asks with requestShutdown and shows the request until it is settled', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    const alice = () => screen.getByTestId('roster-item-alice')

    await confirmShutdown(alice(), 'alice')
    expect(api.requestShutdown).toHaveBeenCalledWith({ name: 'alice' })
    expect(api.sendMessage).not.toHaveBeenCalled()
    expect(alice()).toHaveTextContent('Shutdown requested by you · awaiting its answer')
    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'alice',
          previous: 'idle',
          status: 'working',
          reason: 'activated',
          cause: null,
          error_code: null,
        },
      ]),
    )
    // Working, it is about to read the request: no second one.
    expect(within(alice()).queryByRole('button', { name: 'Shut down…' })).not.toBeInTheDocument()
    expect(within(alice()).queryByRole('button', { name: 'Ask again' })).not.toBeInTheDocument()

    const request = {
      id: 'shutdown-1',
      kind: 'shutdown' as const,
      from: 'user',
      to: 'alice',
      status: 'approved' as const,
      plan: null,
      reason: 'my work is saved',
    }
    act(() => api.emit([{ type: 'protocol-changed', request }]))
    expect(alice()).toHaveTextContent('Shutting down after this step')
    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'alice',
          previous: 'working',
          status: 'shutdown',
          reason: 'my work is saved',
          cause: null,
          error_code: null,
        },
      ]),
    )
    expect(screen.getByTestId('status-alice')).toHaveTextContent('Shut down')
    expect(alice()).not.toHaveTextContent('Shutting down after this step')
  })

  it('drops the shutdown tag of an earlier run once the teammate is spawned again', async () => {
    const request = {
      id: 'shutdown-1',
      kind: 'shutdown' as const,
      from: 'user',
      to: 'alice',
      status: 'approved' as const,
      plan: null,
      reason: 'my work is saved',
    }
    // As a reload finds it: alice works again, and the runtime closed the old request.
    const api = fakeApi({
      snapshot: snapshot({
        ...team,
        members: [agentView('alice', { role: 'coder', status: 'working', running: true })],
        requests: [{ ...request, closed: true }],
      }),
    })
    await renderApp(api)
    const alice = () => screen.getByTestId('roster-item-alice')
    expect(alice()).not.toHaveTextContent('Shutting down after this step')
    expect(within(alice()).getByRole('button', { name: 'Shut down…' })).toBeInTheDocument()

    // Live: the request approved, then closed by a re-spawn.
    act(() => api.emit([{ type: 'protocol-changed', request }]))
    expect(alice()).toHaveTextContent('Shutting down after this step')
    act(() => api.emit([{ type: 'protocol-changed', request: { ...request, closed: true } }]))
    expect(alice()).not.toHaveTextContent('Shutting down after this step')
  })

  it('shows why a teammate declined to shut down, and lets the person ask again', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    const alice = () => screen.getByTestId('roster-item-alice')
    await confirmShutdown(alice(), 'alice')
    act(() =>
      api.emit([
        {
          type: 'protocol-changed',
          request: {
            id: 'shutdown-1',
            kind: 'shutdown',
            from: 'user',
            to: 'alice',
            status: 'rejected',
            plan: null,
            reason: 'the tests are still running',
          },
        },
      ]),
    )
    expect(alice()).toHaveTextContent('Declined to shut down: the tests are still running')
    expect(within(alice()).getByRole('button', { name: 'Shut down…' })).toBeInTheDocument()
  })

  it('offers to ask again when the teammate went idle without answering', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    const alice = () => screen.getByTestId('roster-item-alice')
    await confirmShutdown(alice(), 'alice')
    api.requestShutdown.mockResolvedValueOnce({ requestId: 'shutdown-2' })
    await act(async () => {
      fireEvent.click(within(alice()).getByRole('button', { name: 'Ask again' }))
    })
    expect(api.requestShutdown).toHaveBeenCalledTimes(2)
    expect(alice()).toHaveTextContent('Shutdown requested by you · awaiting its answer')
  })

  it('says so when the shutdown request fails', async () => {
    const api = fakeApi({ snapshot: team })
    api.requestShutdown.mockRejectedValueOnce(
      rejection('unknown-agent', '"alice" is not on the roster.'),
    )
    await renderApp(api)

    await confirmShutdown(screen.getByTestId('roster-item-alice'), 'alice')

    // The dialog stays open with the reason, where the person asked.
    const dialog = screen.getByRole('dialog', { name: 'Shut down alice?' })
    expect(within(dialog).getByRole('alert')).toHaveTextContent('"alice" is not on the roster.')
    expect(screen.getByTestId('roster-item-alice')).not.toHaveTextContent('Shutdown requested')
  })

  it('marks a teammate whose plan waits for approval, and the lead who has plans to review', async () => {
    const api = fakeApi({ snapshot: snapshot({ ...team, requests: [planRequest()] }) })
    await renderApp(api)
    expect(screen.getByTestId('roster-item-alice')).toHaveTextContent('Plan waiting for approval')
    expect(screen.getByTestId('roster-item-lead')).toHaveTextContent('1 plan to review')
    expect(screen.getByTestId('roster-item-bob')).not.toHaveTextContent('Plan waiting')

    act(() =>
      api.emit([{ type: 'protocol-changed', request: planRequest({ status: 'approved' }) }]),
    )
    expect(screen.getByTestId('roster-item-alice')).not.toHaveTextContent('Plan waiting')
    expect(screen.getByTestId('roster-item-lead')).not.toHaveTextContent('plan to review')
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
