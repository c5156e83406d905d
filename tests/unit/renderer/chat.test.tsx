// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, rejection, settingsView, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

describe('the lead chat', () => {
  it('sends on Enter and clears the box', async () => {
    const api = fakeApi()
    await renderApp(api)
    const box = screen.getByLabelText('Message the lead')
    fireEvent.change(box, { target: { value: 'Build a stats module' } })

    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })

    expect(api.chat).toHaveBeenCalledWith({ text: 'Build a stats module' })
    expect(box).toHaveValue('')
  })

  it('grows the box with its text, up to 40 % of the window', async () => {
    // jsdom lays nothing out: the text's height is 20 px a line.
    Object.defineProperty(HTMLTextAreaElement.prototype, 'scrollHeight', {
      configurable: true,
      get(this: HTMLTextAreaElement) {
        return this.value.split('\n').length * 20
      },
    })
    try {
      await renderApp(fakeApi())
      const box = screen.getByLabelText('Message the lead')
      fireEvent.change(box, { target: { value: 'one\ntwo\nthree\nfour\nfive' } })
      expect(box.style.height).toBe('100px')
      fireEvent.change(box, { target: { value: 'line\n'.repeat(500) } })
      expect(box.style.height).toBe(`${Math.round(window.innerHeight * 0.4)}px`)
      expect(box.style.overflowY).toBe('auto')
      fireEvent.change(box, { target: { value: 'short' } })
      expect(box.style.height).toBe('20px')
    } finally {
      // Back to the inherited (jsdom's) getter.
      delete (HTMLTextAreaElement.prototype as { scrollHeight?: number }).scrollHeight
    }
  })

  it('keeps Shift+Enter for a new line and does not send', async () => {
    const api = fakeApi()
    await renderApp(api)
    const box = screen.getByLabelText('Message the lead')
    fireEvent.change(box, { target: { value: 'first line' } })

    const notCancelled = fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })

    expect(notCancelled).toBe(true) // the browser inserts the newline
    expect(api.chat).not.toHaveBeenCalled()
    expect(box).toHaveValue('first line')
  })

  it('does not send an empty message', async () => {
    const api = fakeApi()
    await renderApp(api)
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Message the lead'), { key: 'Enter' })
    })
    expect(api.chat).not.toHaveBeenCalled()
  })

  it('shows a failed send inline and keeps the text', async () => {
    const api = fakeApi()
    api.chat.mockRejectedValueOnce(
      rejection('no-api-key', 'No API key is set. Enter one in Settings.'),
    )
    await renderApp(api)
    const box = screen.getByLabelText('Message the lead')
    fireEvent.change(box, { target: { value: 'hello' } })

    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })

    expect(screen.getByRole('alert')).toHaveTextContent('No API key is set. Enter one in Settings.')
    expect(box).toHaveValue('hello')
  })

  it('clears a key-missing error once a key is saved', async () => {
    const api = fakeApi()
    api.chat.mockRejectedValueOnce(
      rejection('no-api-key', 'No API key is set. Enter one in Settings.'),
    )
    await renderApp(api)
    // The key was removed (in another window, or the environment changed).
    act(() =>
      api.emit([
        {
          type: 'settings-changed',
          settings: settingsView({ apiKeySet: false, apiKeySource: 'none' }),
        },
      ]),
    )
    const box = screen.getByLabelText('Message the lead')
    fireEvent.change(box, { target: { value: 'hello' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(screen.getByRole('alert')).toHaveTextContent('No API key is set.')

    act(() =>
      api.emit([
        {
          type: 'settings-changed',
          settings: settingsView({ apiKeySet: true, apiKeySource: 'settings' }),
        },
      ]),
    )
    expect(screen.queryByText(/No API key is set/)).not.toBeInTheDocument()
    expect(box).toHaveValue('hello')
  })

  it('offers Stop while the lead works, and stops it', async () => {
    const api = fakeApi({
      snapshot: snapshot({ lead: agentView('lead', { status: 'working', running: true }) }),
    })
    await renderApp(api)
    const main = screen.getByRole('main')

    await act(async () => {
      fireEvent.click(within(main).getByRole('button', { name: 'Stop' }))
    })
    expect(api.stopAgent).toHaveBeenCalledWith({ name: 'lead' })

    act(() =>
      api.emit([
        {
          type: 'agent-status-changed',
          name: 'lead',
          previous: 'working',
          status: 'idle',
          reason: 'stopped',
          cause: null,
          error_code: null,
        },
      ]),
    )
    expect(within(main).queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument()
  })

  it('shows the lead’s error where the person is looking', async () => {
    const api = fakeApi()
    await renderApp(api)
    act(() =>
      api.emit([
        { type: 'agent-error', agent: 'lead', code: 'http-401', message: 'invalid x-api-key' },
        {
          type: 'agent-status-changed',
          name: 'lead',
          previous: 'working',
          status: 'error',
          reason: 'invalid x-api-key',
          cause: null,
          error_code: null,
        },
      ]),
    )
    const banner = screen.getByText('The lead stopped with an error').closest('.banner')
    expect(banner).toHaveTextContent('invalid x-api-key')
    // The message says what happened; the code is for tools, not for the person.
    expect(banner).not.toHaveTextContent('http-401')
    expect(banner).toHaveAttribute('data-code', 'http-401')
  })

  it('a teammate’s transcript writes to its inbox', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('alice')] }) })
    await renderApp(api)
    fireEvent.click(
      within(screen.getByTestId('roster-item-alice')).getByRole('button', { name: /^Open alice/ }),
    )
    const box = await screen.findByLabelText('Message alice')
    fireEvent.change(box, { target: { value: 'status?' } })
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' })
    })
    expect(api.sendMessage).toHaveBeenCalledWith({ to: 'alice', content: 'status?' })
  })
})
