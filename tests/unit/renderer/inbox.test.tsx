// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, inboxEntry, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({ members: [agentView('bob', { role: 'tester', pending: 1 })] })
const entries = [
  inboxEntry(0, { state: 'delivered', from: 'alice', content: 'stats.mjs is ready' }),
  inboxEntry(40, {
    state: 'rejected',
    id: null,
    type: null,
    from: null,
    content: '{"type": "mesage"',
    timestamp: null,
    reason: 'not valid JSON: Unexpected end of input',
  }),
  inboxEntry(80, {
    state: 'pending',
    from: 'lead',
    type: 'shutdown_request',
    content: 'please stop',
  }),
]

async function openInbox(api = fakeApi({ snapshot: team, inboxes: { bob: entries } })) {
  await renderApp(api)
  fireEvent.click(
    within(screen.getByTestId('roster-item-bob')).getByRole('button', { name: 'Message' }),
  )
  await screen.findAllByTestId('inbox-entry')
  return api
}

describe('the inbox view', () => {
  it('shows every line with sender, type, state and the rejected reason', async () => {
    await openInbox()
    const [delivered, rejected, pending] = screen.getAllByTestId('inbox-entry')

    expect(delivered).toHaveAttribute('data-state', 'delivered')
    expect(delivered).toHaveTextContent('alice')
    expect(delivered).toHaveTextContent('message')
    expect(delivered).toHaveTextContent('stats.mjs is ready')
    expect(delivered).toHaveTextContent('delivered')

    expect(rejected).toHaveAttribute('data-state', 'rejected')
    expect(rejected).toHaveTextContent('Rejected: not valid JSON: Unexpected end of input')
    expect(rejected).toHaveTextContent('{"type": "mesage"')

    expect(pending).toHaveAttribute('data-state', 'pending')
    expect(pending).toHaveTextContent('shutdown request')
    expect(pending).toHaveTextContent('pending')
  })

  it('calls the person "You", not "user"', async () => {
    const fromPerson = inboxEntry(0, { from: 'user', type: 'broadcast', content: 'all hands' })
    await openInbox(fakeApi({ snapshot: team, inboxes: { bob: [fromPerson] } }))
    const [entry] = screen.getAllByTestId('inbox-entry')
    expect(entry!.querySelector('.inbox-from')).toHaveTextContent(/^You$/)
  })

  it('collapses a long message with Show more', async () => {
    const long = inboxEntry(0, { content: `${'a'.repeat(50_000)}THE END` })
    await openInbox(fakeApi({ snapshot: team, inboxes: { bob: [long] } }))
    const [entry] = screen.getAllByTestId('inbox-entry')
    expect(entry).not.toHaveTextContent('THE END')
    fireEvent.click(within(entry!).getByRole('button', { name: /Show more/ }))
    expect(entry).toHaveTextContent('THE END')
    expect(within(entry!).getByRole('button', { name: 'Show less' })).toBeInTheDocument()
  })

  it('marks a message delivered when the agent takes it', async () => {
    const api = await openInbox()
    act(() => api.emit([{ type: 'message-delivered', agent: 'bob', ids: ['m80'] }]))
    expect(screen.getAllByTestId('inbox-entry')[2]).toHaveAttribute('data-state', 'delivered')
  })

  it('reads the file again when it changes while open (an external append)', async () => {
    const api = await openInbox()
    // Only what can still change is read again: from the first pending line on.
    api.getInbox.mockResolvedValueOnce({
      entries: [entries[2], inboxEntry(120, { from: 'shell', content: 'appended by echo >>' })],
      next: null,
    })
    await act(async () => {
      api.emit([{ type: 'inbox-changed', name: 'bob', change: 'appended', pending: 2 }])
    })
    expect(await screen.findByText('appended by echo >>')).toBeInTheDocument()
    expect(api.getInbox).toHaveBeenLastCalledWith({
      name: 'bob',
      limit: 250,
      from: { segment: 1, offset: 80 },
    })
    expect(screen.getAllByTestId('inbox-entry')).toHaveLength(4)
  })

  it('updates the unread count from the events alone: no snapshot is read for it', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    expect(api.getSnapshot).toHaveBeenCalledTimes(1)
    const message = {
      id: 'm9',
      type: 'message' as const,
      from: 'lead',
      to: 'bob',
      content: 'one more',
      timestamp: 2,
      extra: {},
    }
    await act(async () => {
      api.emit([
        { type: 'message-sent', message },
        { type: 'inbox-changed', name: 'bob', change: 'appended', pending: 2 },
      ])
    })
    expect(screen.getByTestId('unread-bob')).toHaveTextContent('2')
    await act(async () => {
      api.emit([
        { type: 'message-delivered', agent: 'bob', ids: ['m9'] },
        {
          type: 'message-rejected',
          inbox: 'bob',
          position: { segment: 1, offset: 80 },
          reason: 'a claim the record does not hold',
        },
        { type: 'inbox-changed', name: 'bob', change: 'consumed', pending: 0 },
      ])
    })
    expect(screen.queryByTestId('unread-bob')).not.toBeInTheDocument()
    expect(api.getSnapshot).toHaveBeenCalledTimes(1)
  })

  it('pages with Load more', async () => {
    const api = fakeApi({ snapshot: team })
    api.getInbox.mockResolvedValueOnce({
      entries: [inboxEntry(0)],
      next: { segment: 1, offset: 40 },
    })
    api.getInbox.mockResolvedValueOnce({
      entries: [inboxEntry(40, { content: 'second page' })],
      next: null,
    })
    await openInbox(api)

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    })

    expect(api.getInbox).toHaveBeenLastCalledWith({
      name: 'bob',
      limit: 200,
      from: { segment: 1, offset: 40 },
    })
    expect(screen.getAllByTestId('inbox-entry')).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('writes a plain message, and offers the person no protocol message type', async () => {
    const api = await openInbox()
    expect(screen.queryByLabelText('Type')).not.toBeInTheDocument()
    expect(screen.queryByRole('option', { name: /shutdown|plan/ })).not.toBeInTheDocument()
    const box = screen.getByLabelText('Message bob')
    fireEvent.change(box, { target: { value: 'time to stop' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(api.sendMessage).toHaveBeenCalledWith({ to: 'bob', content: 'time to stop' })
  })

  it('asks before a broadcast, then says how many agents it reached', async () => {
    const api = await openInbox()
    const box = screen.getByLabelText('Message bob')
    fireEvent.change(box, { target: { value: 'hello team' } })

    fireEvent.click(screen.getByRole('button', { name: 'Broadcast to team' }))
    const ask = screen.getByRole('dialog', { name: 'Broadcast to the team?' })
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
    expect(api.broadcast).not.toHaveBeenCalled()
    expect(box).toHaveValue('hello team')

    fireEvent.click(screen.getByRole('button', { name: 'Broadcast to team' }))
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Broadcast to the team?' })).getByRole('button', {
          name: 'Broadcast',
        }),
      )
    })
    expect(api.broadcast).toHaveBeenCalledWith({ content: 'hello team' })
    expect(box).toHaveValue('')
    expect(screen.getByRole('status')).toHaveTextContent('Broadcast sent to 2 agents.')
  })

  it('shows a refused send inline', async () => {
    const api = await openInbox()
    api.sendMessage.mockRejectedValueOnce(
      rejection('message-too-large', 'The message is larger than 1 MiB.'),
    )
    const box = screen.getByLabelText('Message bob')
    fireEvent.change(box, { target: { value: 'x' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(screen.getByRole('alert')).toHaveTextContent('The message is larger than 1 MiB.')
    expect(screen.getByRole('alert')).toHaveAttribute('data-code', 'message-too-large')
  })
})
